import NIOCore
import Synchronization

/// The connections whose WebSocket upgrade was refused for its origin, until their answer is
/// written (`RefusedUpgradeStatus`).
final class RefusedConnections: Sendable {
    private let channels = Mutex<Set<ObjectIdentifier>>([])

    func add(_ channel: any Channel) {
        _ = channels.withLock { $0.insert(ObjectIdentifier(channel)) }
    }

    /// Whether `channel` was refused; it is forgotten.
    func take(_ channel: any Channel) -> Bool {
        channels.withLock { $0.remove(ObjectIdentifier(channel)) != nil }
    }
}
