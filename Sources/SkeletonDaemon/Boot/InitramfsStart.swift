import SkeletonLog
import SkeletonSettings
import SkeletonSystem

/// A daemon started from the initramfs (`SKELETOND_INITRAMFS=1`, set by the initramfs-tools
/// script and the dracut hook) keeps showing the skeleton into the real root:
///
/// - its argv[0] begins with '@', so that systemd spares it when a systemd initrd switches to
///   the real root and at shutdown's last kill, as it spares plymouthd (systemd.io "Storage
///   Daemons for the Root File System");
/// - beside its control socket (in /run, which the initramfs hands to the real root) it writes
///   `initramfs.pid` and `initramfs.alive`, a symbolic link to `/proc/PID`: the link resolves
///   only while the process lives, so `skeletond.service` and `skeletond.socket`
///   (`ConditionPathExists=!`) are skipped while it shows the skeleton, as Plymouth's units
///   find plymouthd from the initramfs, and start as usual once it is gone, even killed
///   without its cleanup.
enum InitramfsStart {
    static var requested: Bool { SystemCalls.environment("SKELETOND_INITRAMFS") == "1" }

    /// The process id file beside the socket at `socketPath`.
    static func markerPath(socketPath: String) -> String { directory(of: socketPath) + "/initramfs.pid" }

    /// The link beside the socket at `socketPath` that resolves while the daemon lives.
    static func alivePath(socketPath: String) -> String { directory(of: socketPath) + "/initramfs.alive" }

    private static func directory(of socketPath: String) -> String {
        socketPath.lastIndex(of: "/").map { String(socketPath[..<$0]) } ?? "."
    }

    /// argv[0] begins with '@' from now on, as /proc/self/cmdline shows it.
    static func markArgumentZero() {
        guard let first = CommandLine.unsafeArgv[0], first.pointee != 0 else { return }
        first.pointee = CChar(UInt8(ascii: "@"))
    }

    static func writeMarker(socketPath: String, logger: Logger) {
        let pid = SystemCalls.processID
        let marker = markerPath(socketPath: socketPath)
        let alive = alivePath(socketPath: socketPath)
        do {
            try SystemCalls.writeFile(marker, Array("\(pid)\n".utf8))
            try? SystemCalls.unlink(alive)
            try SystemCalls.symbolicLink(alive, to: "/proc/\(pid)")
        } catch {
            logger.warning("cannot mark the daemon as the initramfs's beside its socket: \(error); skeletond.service in the real root may start a second daemon")
        }
    }

    static func removeMarker(socketPath: String) {
        try? SystemCalls.unlink(alivePath(socketPath: socketPath))
        try? SystemCalls.unlink(markerPath(socketPath: socketPath))
    }
}
