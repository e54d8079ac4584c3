@testable import SkeletonDaemon
import Testing

/// `deactivate` lends the display to an app (a display server that takes DRM master): the host
/// lets it go and takes it back for nothing until `reactivate`. On the memory output, with no daemon.
@Suite struct HostLendingTests {
    @Test func deactivateLetsTheDisplayGoUntilReactivate() throws {
        let h = try HostOnCard(card: nil)
        h.step(to: h.clock.now + 0.1)
        #expect(!h.host.released)
        h.act { $0.deactivate() }
        #expect(h.host.deactivated && h.host.released)
        h.show()
        h.step(to: h.clock.now + 0.1)
        #expect(h.host.released, "a show while deactivated does not take the display back")
        h.act { $0.reactivate() }
        h.show()
        h.step(to: h.clock.now + 0.1)
        #expect(!h.host.deactivated && !h.host.released)
        #expect(h.lastPresent == .complete, "and draws on it again")
    }
}
