import SkeletonLog
import SkeletonSettings
import SkeletonSystem
/// sd_notify(3)'s protocol, spoken directly: one datagram to $NOTIFY_SOCKET.
struct SystemdNotifier {
    let socketPath: String?

    init() { socketPath = SystemCalls.environment("NOTIFY_SOCKET") }

    func notify(_ fields: [String: String], logger: Logger) {
        guard let socketPath else { return }
        let message = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        do { try SystemCalls.notify(socket: socketPath, message: message) } catch {
            logger.warning("cannot notify systemd on \(socketPath): \(error)")
        }
    }
}
