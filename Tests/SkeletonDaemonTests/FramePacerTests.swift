@testable import SkeletonDaemon
import Testing

/// When frames are drawn: on the pacer's grid, or as soon as a display that paces frames itself
/// (a Wayland compositor's frame callbacks) takes the next one.
struct FramePacerTests {
    @Test func movingFramesKeepTheirGridUnderTheCap() throws {
        var pacer = FramePacer(maxFPS: 50)
        pacer.drew(at: 1.000, moving: true)
        #expect(!pacer.mayDraw(at: 1.015, moving: true))
        #expect(pacer.mayDraw(at: 1.020, moving: true))
        #expect(pacer.nextMovingFrame == 1.020)
        // On time: the next frame is the grid's.
        #expect(pacer.drew(at: 1.020, moving: true) == nil)
        #expect(pacer.nextMovingFrame == 1.040)
        // 11 ms late: the grid says 1.060, the cap 1.0705; the loop sleeps until the time a
        // frame may be drawn, not before.
        #expect(pacer.drew(at: 1.051, moving: true) == nil)
        #expect(pacer.nextFrame == 1.060)
        let next = try #require(pacer.nextMovingFrame)
        #expect(abs(next - 1.0705) < 1e-9, "\(next)")
        #expect(!pacer.mayDraw(at: 1.060, moving: true))
        #expect(pacer.mayDraw(at: next, moving: true))
    }

    /// Slots left out move the next frame along the grid; a cancel brings back the slot last
    /// passed at once, and only the slots before it count as left out.
    @Test func slotsLeftOutStayOnTheGridAndComeBackWhenCancelled() throws {
        var pacer = FramePacer(maxFPS: 50)
        pacer.drew(at: 1.000, moving: true)
        pacer.skip(5)
        #expect(abs(try #require(pacer.nextMovingFrame) - 1.120) < 1e-9)
        #expect(pacer.framesRepeated == 5)
        #expect(!pacer.mayDraw(at: 1.100, moving: true))
        pacer.cancelSkip(now: 1.071)
        // 1.020, 1.040 and 1.060 have passed: 1.060 is drawn now, the two before it were left out.
        #expect(abs(try #require(pacer.nextFrame) - 1.060) < 1e-9)
        #expect(pacer.framesRepeated == 2)
        #expect(pacer.mayDraw(at: 1.071, moving: true))
        #expect(pacer.drew(at: 1.071, moving: true) == nil, "not late")
        #expect(abs(try #require(pacer.nextFrame) - 1.080) < 1e-9)
        pacer.cancelSkip(now: 1.075)
        #expect(abs(try #require(pacer.nextFrame) - 1.080) < 1e-9, "nothing left out: nothing to bring back")
        // A new cap meanwhile (settings reloaded): the slots are counted in the interval they were left out in.
        pacer.skip(3)
        pacer.maxFPS = 10
        pacer.cancelSkip(now: 1.105)
        #expect(abs(try #require(pacer.nextFrame) - 1.100) < 1e-9)
        #expect(pacer.framesRepeated == 3, "the 1.080 slot left out, and the two before")
    }

    /// Woken late by a varying few milliseconds, as on a loaded CPU: one turn of the loop per
    /// frame (it had turned without sleeping from the grid's time to the cap's slot, thousands
    /// of times a second), and the frames still come at the cap's rate.
    @Test func aLateWakeDoesNotTurnTheLoopOverAndOver() throws {
        let layout = ContentCommandTests.splash.replacingOccurrences(of: #""value": 0,"#, with: #""value": "indeterminate","#)
        let d = try SteppedDaemon(layouts: ["splash": layout], start: "splash", settings: #"{"display": {"maxFps": 30}}"#)
        d.step(to: 101)
        let before = d.daemon.pacer.framesDrawn
        var turns = 0
        for frame in 0..<30 {
            let deadline = try #require(d.events.deadline, "the loop sleeps with no deadline")
            d.clock.set(max(d.clock.now, deadline) + (frame % 2 == 0 ? 0.004 : 0))
            var n = 0
            while d.events.wakes(at: d.clock.now) && n < 100 {
                d.daemon.turn()
                n += 1
            }
            turns += n
        }
        let frames = d.daemon.pacer.framesDrawn - before
        #expect(turns <= 30, "\(turns) turns of the loop for \(frames) frames")
        #expect(frames == 30, "\(frames) frames for 30 wakes")
    }

    /// A compositor at 40 Hz under a cap of 60: every callback is followed at once, never sooner
    /// than three quarters of the cap's interval after the last frame, and nothing counts as late.
    @Test func aPacingDisplayIsFollowed() {
        var pacer = FramePacer(maxFPS: 60)
        pacer.followsDisplay = true
        pacer.drew(at: 1.000, moving: true)
        #expect(pacer.pacedEarliest == 1.0125)
        #expect(!pacer.mayDraw(at: 1.010, moving: true), "the cap holds")
        #expect(pacer.mayDraw(at: 1.013, moving: true), "not the grid's 1.0167")
        for n in 1...10 {
            let callback = 1.0 + Double(n) * 0.025
            #expect(pacer.mayDraw(at: callback, moving: true))
            #expect(pacer.drew(at: callback, moving: true) == nil)
        }
        #expect(pacer.framesLate == 0)
        #expect(pacer.framesDrawn == 11)
        // Nothing moving: no paced frame is owed.
        pacer.drew(at: 1.3, moving: false)
        #expect(pacer.pacedEarliest == nil)
    }

    static let pulse = """
        {"name": "pulse", "canvas": {"width": 200, "height": 100, "background": "#000000"},
         "presentation": {"style": "solid", "animated": true},
         "root": {"kind": "view", "children": [{"kind": "view", "frame": [90, 40, 22, 22]}]}}
        """

    /// A pulse between the default tint and its complement keeps each of its 14 levels for
    /// several frames: the loop sleeps through the slots that would repeat the frame on screen,
    /// and at every slot the screen is that slot's frame all the same.
    @Test func framesThatRepeatTheOneOnScreenAreSleptThrough() throws {
        let d = try SteppedDaemon(layouts: ["pulse": Self.pulse], start: "pulse", settings: #"{"display": {"maxFps": 30}}"#)
        d.step(to: 101)
        let origin = try #require(d.daemon.pacer.lastDraw)
        let drawn = d.daemon.pacer.framesDrawn, repeated = d.daemon.pacer.framesRepeated
        var wakes = 0
        for slot in 1...60 {
            let time = origin + Double(slot) / 30
            while let deadline = d.events.deadline, deadline <= time + 1e-9, deadline > d.clock.now {
                d.clock.set(deadline)
                wakes += 1
                d.step(to: deadline)
            }
            d.step(to: time + 1e-9)
            let frame = try #require(d.daemon.screen.session.frame(at: d.clock.now))
            let expected = try d.render("pulse", at: frame.animationTime - (d.clock.now - time))
            #expect(d.screen.pixels == expected.pixels, "slot \(slot)")
        }
        let drawnNow = d.daemon.pacer.framesDrawn - drawn, repeatedNow = d.daemon.pacer.framesRepeated - repeated
        #expect(repeatedNow >= 20, "\(repeatedNow) frames left out, \(drawnNow) drawn")
        #expect((58...62).contains(drawnNow + repeatedNow), "\(drawnNow) drawn and \(repeatedNow) left out in 60 slots")
        #expect(wakes <= drawnNow + 1, "\(wakes) wakes for \(drawnNow) frames")
        #expect(d.daemon.pacer.framesLate == 0)
        let client = try d.connect()
        #expect(d.request(client, #"{"command": "status"}"#)?["framesRepeated"] == .number(Double(d.daemon.pacer.framesRepeated)))
    }

    /// A command that comes while slots are left out is drawn at the next slot, not after them.
    @Test func aCommandBetweenRepeatedFramesIsDrawnAtTheNextSlot() throws {
        let d = try SteppedDaemon(layouts: ["pulse": Self.pulse], start: "pulse", settings: #"{"display": {"maxFps": 30}}"#)
        d.step(to: 101)
        // Into a stretch of left-out slots: the loop sleeps past the next slot.
        var sleepsLong = false
        for _ in 0..<60 {
            guard let deadline = d.events.deadline, let last = d.daemon.pacer.lastDraw else { break }
            if deadline > last + 1.5 / 30 {
                d.step(to: last + 1.2 / 30)
                sleepsLong = true
                break
            }
            d.step(to: deadline)
        }
        #expect(sleepsLong, "no slot was left out")
        let client = try d.connect()
        let before = d.screen[100, 50], drawn = d.daemon.pacer.framesDrawn
        #expect(d.request(client, ##"{"command": "update", "tint": "#FF0000"}"##)?["updated"] == .bool(true))
        // Drawn without the loop turning over and over until the grid's slot.
        var turns = 0
        while d.events.wakes(at: d.clock.now) && turns < 100 {
            d.daemon.turn()
            turns += 1
        }
        #expect(turns <= 3, "\(turns) turns at one instant")
        d.step(to: d.clock.now + 1.0 / 30 + 0.001)
        // The change dissolves in from the next slot on.
        let shown = d.screen[100, 50]
        #expect(d.daemon.pacer.framesDrawn > drawn)
        #expect((shown >> 16) & 0xFF > (shown >> 8) & 0xFF, "\(String(shown, radix: 16)) one slot after the update, \(String(before, radix: 16)) before")
    }
}
