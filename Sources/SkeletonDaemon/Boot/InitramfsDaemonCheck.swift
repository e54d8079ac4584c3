import SkeletonClient
import SkeletonProtocol

/// Whether the daemon started from the initramfs still serves the control socket: `skeletond
/// run` in the real root must then not start a second daemon, which would fight it over DRM
/// master and the socket. (`skeletond.service` is skipped by its condition while that daemon
/// lives; this is for a start by hand, or a link that could not be made.)
enum InitramfsDaemonCheck {
    /// True when a daemon on `socketPath` answers `status` with `"initramfs": true` within 5 s.
    static func answers(socketPath: String) -> Bool {
        guard case .success(let client) = ControlClient.connect(path: socketPath) else { return false }
        defer { client.close() }
        guard case .success(let reply) = client.send(Request(command: .status), timeout: 5) else { return false }
        return reply.json["initramfs"] == true
    }
}
