import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import Testing

/// Plymouth's socket name already taken (plymouthd runs, or another daemon): the second daemon
/// says so and goes on without it, its control socket working.
@Suite struct PlymouthNameTakenTests {
    @Test func aTakenNameIsLoggedAndTheDaemonGoesOn() throws {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let settings = #"{"plymouth": {"listen": true, "socket": "\#(name)"}}"#
        let first = try SteppedDaemon(layouts: PlymouthTests.layouts, start: "a", settings: settings)
        let second = try SteppedDaemon(layouts: PlymouthTests.layouts, start: "a", settings: settings)
        #expect(first.daemon.inlets.plymouth != nil)
        #expect(second.daemon.inlets.plymouth == nil)
        #expect(second.logContains("plymouth: cannot listen on @\(name)"))
        let c = try second.connect()
        #expect(second.request(c, #"{"command": "ping"}"#)?["pong"] == true)
    }
}
