import Foundation
@testable import SkeletonDaemon
import SkeletonDisplay
import SkeletonDisplayDoubles
import SkeletonLayout
import SkeletonSystem
import Testing

/// VTs in memory: which one is shown, and what the display host asked of them, in order.
final class MemoryTerminals: VirtualTerminals {
    var shown: Int? = 1
    private(set) var log: [String] = []
    /// Called at VT_RELDISP 1, before the switch goes on (to look at the card then).
    var onRelease: () -> Void = {}

    func active() -> Int? { shown }
    func setProcessMode(_ number: Int) throws(Errno) { log.append("process \(number)") }
    func setAutoMode(_ number: Int) { log.append("auto \(number)") }
    func release(_ number: Int) {
        onRelease()
        log.append("release \(number)")
    }
    func acknowledgeAcquire(_ number: Int) { log.append("acquire \(number)") }
    var graphics: [Int: Bool] = [:]
    func isGraphics(_ number: Int) -> Bool? { graphics[number] ?? false }
    func setGraphics(_ number: Int, _ graphics: Bool) { self.graphics[number] = graphics }
}

/// VT switches while the skeleton shows on a DRM card (issue 48, item 3), on a card in memory
/// and VTs in memory, driven through the display host with no daemon (`HostOnCard`): the switch's
/// signals are handed to the host as the daemon's loop hands them over. One stepped daemon checks
/// that loop's own part: the signals reach the host through its event source.
@Suite(.serialized) struct VTSwitchTests {
    let skeletonBar: UInt32 = 0x2C3E50

    @Test func aSwitchAwayHandsTheVTItsConsoleAndTheSwitchBackDrawsTheWholeFrame() throws {
        let card = try CardFaultTests.Card()
        let device = try #require(card.device)
        let terminals = MemoryTerminals()
        let h = try HostOnCard(card: card.path, terminals: terminals)
        h.step(to: h.clock.now + 0.5)
        #expect(terminals.log == ["process 1"], "the VT the skeleton shows on asks before a switch")
        #expect(terminals.graphics[1] != true, "and stays in text mode until a switch: a reset to text (a getty stopped) would make the console set its mode over the skeleton")
        #expect(device.pixel(x: 0, y: 0).map { $0 & 0xFF_FFFF } == skeletonBar)

        var dropsAtRelease: Int?
        terminals.onRelease = { dropsAtRelease = device.masterDrops }
        h.act { $0.vtSwitchAwayAsked() }
        h.step(to: h.clock.now + 0.01)
        #expect(terminals.log.last == "release 1", "the switch is allowed")
        #expect(terminals.graphics[1] == true, "from a graphics VT: the other VT's console sets its mode")
        #expect(dropsAtRelease == 1, "DRM master dropped before the switch goes on: the console's mode set is not refused")
        terminals.shown = 2

        let callsAway = device.calls.count
        let asksAway = device.masterRequests
        h.step(to: h.clock.now + 5)
        #expect(device.calls.count == callsAway, "no flip nor mode set while another VT is shown")
        #expect(device.masterRequests == asksAway, "master is not asked for: the VT is not ours")
        #expect(h.host.problem == "another VT (tty2) is shown; the skeleton comes back when tty1 is", "\(h.host.problem ?? "no problem")")
        var tinted = h.look
        tinted.overrides.tint = Color(rgb: 0xFF0000)
        h.update(tinted)
        h.step(to: h.clock.now + 1)
        #expect(device.calls.count == callsAway && device.masterRequests == asksAway, "a changed frame waits for the switch back")

        terminals.shown = 1
        h.act { $0.vtSwitchedBack() }
        h.step(to: h.clock.now + 0.05)
        #expect(terminals.log.last == "acquire 1", "the switch back is acknowledged")
        #expect(device.masterRequests == asksAway + 1, "master taken back at once")
        #expect(device.calls.dropFirst(callsAway).first?.hasPrefix("setCrtc 200x100") == true, "the mode is set again, on a whole frame: \(device.calls.dropFirst(callsAway).prefix(2))")
        #expect(device.pixel(x: 0, y: 0).map { $0 & 0xFF_FFFF } != nil)
        #expect(h.host.problem == nil)
        h.step(to: h.clock.now + 2)
        #expect(device.calls.dropFirst(callsAway).contains { $0.hasPrefix("pageFlip") }, "the skeleton animates again: \(device.calls.dropFirst(callsAway))")
        h.hide()
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.graphics[1] == false, "hidden: the VT's text mode is back, the console's text with it")
    }

    @Test func theVTIsPutBackToAutoWheneverTheDisplayIsLetGo() throws {
        let card = try CardFaultTests.Card()
        let terminals = MemoryTerminals()
        let h = try HostOnCard(card: card.path, terminals: terminals)
        h.step(to: h.clock.now + 0.3)
        h.hide()
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log == ["process 1", "auto 1"], "hide")
        #expect(terminals.graphics[1] == nil, "with no switch, the VT's text mode is never touched")
        h.show()
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.last == "process 1", "shown again")
        h.hide(retain: true)
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.last == "auto 1", "hide --retain")
        #expect(terminals.graphics[1] == nil, "nor at a retained hide")
        h.show()
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.last == "process 1")
        h.act { $0.deactivate() }
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.last == "auto 1", "deactivate")
        let before = terminals.log.count
        h.act { $0.vtSwitchAwayAsked() }
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.count == before, "a late signal is not answered: the VT switches by itself now")
        h.act { $0.reactivate() }
        h.show()
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.last == "process 1")
        h.shutdown()
        #expect(terminals.log.last == "auto 1", "exit")
    }

    @Test func aHideAndShowWhileAwayWaitForTheSwitchBack() throws {
        let card = try CardFaultTests.Card()
        let first = try #require(card.device)
        let terminals = MemoryTerminals()
        let h = try HostOnCard(card: card.path, terminals: terminals)
        h.step(to: h.clock.now + 0.3)
        h.act { $0.vtSwitchAwayAsked() }
        h.step(to: h.clock.now + 0.01)
        terminals.shown = 2
        h.hide()
        h.step(to: h.clock.now + 0.3)
        #expect(terminals.log.last == "auto 1", "hidden: the VT switches by itself")
        #expect(first.calls.last?.hasPrefix("setCrtc") != true, "the console's CRTC is not put back over tty2")
        // The hide closed the card; the same card is there to open again.
        try card.plugIn()
        let device = try #require(card.device)
        let callsAway = device.calls.count
        let asks = device.masterRequests
        h.show()
        h.step(to: h.clock.now + 2)
        #expect(device.calls.count == callsAway && device.masterRequests == asks, "a show while tty2 is shown does not take the card")
        #expect(terminals.log.last == "process 1", "but asks to hear of the switch back")
        terminals.shown = 1
        h.act { $0.vtSwitchedBack() }
        h.step(to: h.clock.now + 0.3)
        #expect(device.calls.dropFirst(callsAway).contains { $0.hasPrefix("setCrtc 200x100") }, "shown on the switch back")
        #expect(device.pixel(x: 0, y: 0).map { $0 & 0xFF_FFFF } == skeletonBar)
    }

    @Test func aMemoryDisplayLeavesTheVTsAlone() throws {
        let terminals = MemoryTerminals()
        let h = try HostOnCard(card: nil, terminals: terminals)
        h.step(to: h.clock.now + 0.3)
        #expect(h.host.display is MemoryDisplay && h.lastPresent == .complete, "the skeleton is drawn, into memory")
        h.shutdown()
        #expect(terminals.log.isEmpty && terminals.graphics.isEmpty, "not one call on a VT: \(terminals.log)")
    }

    /// The daemon's own part, end to end: the kernel's VT signals reach the host through the
    /// loop's event source, `status` answers the host's problem meanwhile, and a signal after
    /// `deactivate` is neither answered nor taken for a request to stop.
    @Test func theLoopHandsTheVTSignalsToTheHostAndALateOneDoesNotStopIt() throws {
        let card = try CardFaultTests.Card()
        let device = try #require(card.device)
        let terminals = MemoryTerminals()
        let d = try SteppedDaemon(layouts: ["simple": TestLayouts.simpleText], start: "simple", drmCard: card.path, terminals: terminals)
        d.step(to: d.clock.now + 0.3)
        d.events.deliver(SystemCalls.vtReleaseSignal)
        d.step(to: d.clock.now + 0.01)
        #expect(terminals.log == ["process 1", "release 1"], "SIGUSR1 is the host's switch away")
        #expect(device.masterDrops == 1)
        terminals.shown = 2
        let client = try d.connect()
        let status = try #require(d.request(client, #"{"command": "status"}"#))
        #expect(status["problem"]?.stringValue == "another VT (tty2) is shown; the skeleton comes back when tty1 is", "\(status)")

        let callsAway = device.calls.count
        terminals.shown = 1
        d.events.deliver(SystemCalls.vtAcquireSignal)
        d.step(to: d.clock.now + 0.05)
        #expect(terminals.log.last == "acquire 1", "SIGUSR2 is the host's switch back")
        #expect(device.calls.dropFirst(callsAway).first?.hasPrefix("setCrtc 200x100") == true, "drawn whole on the daemon's next frame")

        #expect(d.request(client, #"{"command": "deactivate"}"#)?["deactivated"] == true)
        d.step(to: d.clock.now + 0.3)
        let before = terminals.log.count
        d.events.deliver(SystemCalls.vtReleaseSignal)
        d.step(to: d.clock.now + 0.3)
        #expect(terminals.log.count == before, "a late signal is not answered")
        #expect(d.daemon.loop.running, "nor does it stop the daemon")
    }
}
