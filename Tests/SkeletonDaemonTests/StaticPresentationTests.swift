import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonRender
import Testing

/// A presentation that does not animate (`"animated": false`, the natural choice for a boot
/// splash) still owes the frames of what moves on its own: a bar sliding to a new value and an
/// indeterminate bar. The stepped loop wakes only where the real one would, so a daemon that
/// does not ask for those frames stands still here too. (Plymouth's and psplash's progress,
/// through their adapters, are `PlymouthOnScreenTests`'.)
@Suite struct StaticPresentationTests {
    /// The bar's fill ends at x = 200 * value (the layout of `ContentCommandTests.splash`).
    func fillEnd(_ d: SteppedDaemon) -> Int {
        (0..<200).last { d.screen[$0, 65] & 0xFFFFFF == 0xFF0000 }.map { $0 + 1 } ?? 0
    }

    @Test func aBarSetOverTheSocketSlidesToItsValue() throws {
        let d = try SteppedDaemon(layouts: ["splash": ContentCommandTests.splash], start: "splash")
        d.step(to: 101)
        let client = try d.connect()
        #expect(d.request(client, #"{"command": "update", "progress": 0.95}"#)?["ok"] == .bool(true))
        d.step(to: d.clock.now + 0.25)
        #expect((60...140).contains(fillEnd(d)), "half way through the slide: \(fillEnd(d))")
        d.step(to: d.clock.now + 4)
        #expect(fillEnd(d) == 190)
    }

    @Test func anIndeterminateBarMovesAtTheFrameRate() throws {
        let layout = ContentCommandTests.splash.replacingOccurrences(of: #""value": 0,"#, with: #""value": "indeterminate","#)
        let d = try SteppedDaemon(layouts: ["splash": layout], start: "splash", settings: #"{"display": {"maxFps": 30}}"#)
        d.step(to: 101)
        let before = d.daemon.pacer.framesDrawn
        var ends: Set<Int> = []
        for tenth in 1...10 {
            d.step(to: 101 + Double(tenth) / 10)
            ends.insert(fillEnd(d))
        }
        #expect((29...31).contains(d.daemon.pacer.framesDrawn - before), "frames in one second: \(d.daemon.pacer.framesDrawn - before)")
        #expect(ends.count >= 8, "the segment crosses the bar: \(ends.sorted())")
    }
}

/// `display.maxFps` caps the frames presented, whatever moves.
@Suite struct FrameRateCapTests {
    @Test(arguments: [10, 24, 60])
    func anAnimatedLayoutPresentsAtMostMaxFpsFrames(maxFps: Int) throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default",
                                  settings: #"{"display": {"maxFps": \#(maxFps)}}"#)
        d.step(to: 101)
        let output = try #require(d.provider.display)
        let before = output.framesPresented
        let drawnBefore = d.daemon.pacer.framesDrawn, repeatedBefore = d.daemon.pacer.framesRepeated
        d.step(to: 103)
        let drawn = d.daemon.pacer.framesDrawn - drawnBefore
        let repeated = d.daemon.pacer.framesRepeated - repeatedBefore
        let presented = output.framesPresented - before
        // Every frame slot is drawn, or left out when the sweep (off the shapes at its turn)
        // would repeat the frame on screen.
        #expect((2 * maxFps - 1)...(2 * maxFps + 1) ~= drawn + repeated,
                "\(drawn) frames drawn and \(repeated) left out in two seconds at maxFps \(maxFps)")
        #expect(presented <= drawn && presented >= drawn * 9 / 10, "\(presented) frames presented of \(drawn)")
        #expect(d.daemon.pacer.framesLate == 0)
    }
}

/// The memory output's snapshot is written at most four times a second, whatever comes.
@Suite struct SnapshotRateTests {
    @Test func aHideShowStormWritesAtMostFourSnapshotsASecond() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString.prefix(8)).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default",
                                  settings: #"{"display": {"snapshot": "\#(path)"}}"#)
        d.step(to: 101)
        let display = try #require(d.provider.display)
        let before = display.snapshotsWritten
        let c = try d.connect()
        for i in 0..<200 {
            c.send(#"{"command": "hide", "transition": {"kind": "none"}}"# + "\n" + #"{"command": "show", "transition": {"kind": "none"}}"# + "\n")
            d.step(to: 101 + Double(i + 1) / 200)
            _ = d.reply(c)
            _ = d.reply(c)
        }
        let written = display.snapshotsWritten - before
        #expect((1...5).contains(written), "\(written) snapshots in one second of hides and shows")
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
