import Foundation
@testable import SkeletonDaemon
import Testing

/// After `deactivate`, the app's word that it has drawn (`hide --retain`) is awaited: without it
/// the frame stays and, after 30 s on the manual clock, the log says which step waits, once.
@Suite struct HandOverWatchTests {
    static let waiting = "hand-over: deactivated 30 s ago for a display server, and nothing has said since that the app has drawn"

    @Test func anAppThatNeverDrawsIsSaidOnce() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default")
        d.step(to: 101)
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "deactivate"}"#)?["deactivated"] == true)
        d.step(to: 130.5)
        #expect(!d.logContains("hand-over:"), "said before 30 s")
        d.step(to: 131.5)
        #expect(d.logContains(Self.waiting))
        #expect(d.logContains("the skeleton's frame stays on the card"))
        d.step(to: 200)
        #expect(d.lines.all.filter { $0.contains("hand-over:") }.count == 1, "said once")
        #expect(d.daemon.screen.session.state == .showing)
    }

    @Test func anAppThatSaysItHasDrawnIsNotWaitedFor() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default")
        d.step(to: 101)
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "deactivate"}"#)?["deactivated"] == true)
        d.step(to: 110)
        #expect(d.request(c, #"{"command": "hide", "retain": true}"#)?["ok"] == true)
        d.step(to: 200)
        #expect(!d.logContains("hand-over:"))
        // reactivate ends the wait too.
        #expect(d.request(c, #"{"command": "show"}"#)?["ok"] == true)
        #expect(d.request(c, #"{"command": "deactivate"}"#)?["deactivated"] == true)
        d.step(to: 210)
        #expect(d.request(c, #"{"command": "reactivate"}"#)?["deactivated"] == false)
        d.step(to: 300)
        #expect(!d.logContains("hand-over:"))
    }
}
