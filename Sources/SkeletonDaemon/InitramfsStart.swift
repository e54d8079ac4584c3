import SkeletonSettings
import SkeletonSystem

/// A daemon started from the initramfs (`SKELETOND_INITRAMFS=1`, set by the initramfs-tools
/// script and the dracut hook) keeps showing the skeleton into the real root:
///
/// - its argv[0] begins with '@', so that systemd spares it when a systemd initrd switches to
///   the real root and at shutdown's last kill, as it spares plymouthd (systemd.io "Storage
///   Daemons for the Root File System");
/// - it writes `initramfs.pid` beside its control socket (in /run, which the initramfs hands to
///   the real root), so that `skeletond.socket` stands down and `skeletond run` started by
///   `skeletond.service` attaches to it (`InitramfsAttachment`) instead of starting a second
///   daemon that would fight it over DRM master.
enum InitramfsStart {
    static var requested: Bool { SystemCalls.environment("SKELETOND_INITRAMFS") == "1" }

    /// The marker beside the socket at `socketPath`.
    static func markerPath(socketPath: String) -> String {
        let directory = socketPath.lastIndex(of: "/").map { String(socketPath[..<$0]) } ?? "."
        return (directory.isEmpty ? "" : directory) + "/initramfs.pid"
    }

    /// argv[0] begins with '@' from now on, as /proc/self/cmdline shows it.
    static func markArgumentZero() {
        guard let first = CommandLine.unsafeArgv[0], first.pointee != 0 else { return }
        first.pointee = CChar(UInt8(ascii: "@"))
    }

    static func writeMarker(socketPath: String, logger: Logger) {
        let path = markerPath(socketPath: socketPath)
        do { try SystemCalls.writeFile(path, Array("\(SystemCalls.processID)\n".utf8)) } catch {
            logger.warning("cannot write \(path): \(error); skeletond.service in the real root may start a second daemon")
        }
    }

    static func removeMarker(socketPath: String) {
        try? SystemCalls.unlink(markerPath(socketPath: socketPath))
    }
}
