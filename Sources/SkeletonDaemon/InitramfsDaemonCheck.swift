import SkeletonLayout
import SkeletonSystem

/// Whether the daemon started from the initramfs still serves the control socket: `skeletond
/// run` in the real root must then not start a second daemon, which would fight it over DRM
/// master and the socket. (`skeletond.service` is skipped by its condition while that daemon
/// lives; this is for a start by hand, or a link that could not be made.)
enum InitramfsDaemonCheck {
    /// True when a daemon on `socketPath` answers `status` with `"initramfs": true` within 5 s.
    static func answers(socketPath: String) -> Bool {
        guard let fd = try? SystemCalls.unixConnect(socketPath) else { return false }
        defer { fd.close() }
        fd.writeAll(Array("{\"id\": \"initramfs-check\", \"command\": \"status\"}\n".utf8))
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = SystemCalls.monotonicSeconds() + 5
        while !line.contains(0x0A) {
            let left = Int32(max(0, (deadline - SystemCalls.monotonicSeconds()) * 1000))
            guard left > 0, !SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: left).isEmpty,
                  let n = try? buffer.withUnsafeMutableBytes({ try fd.read(into: $0) }), n > 0 else { return false }
            line += buffer[0..<n]
        }
        guard let reply = try? JSONValue.parse(Array(line.prefix { $0 != 0x0A })) else { return false }
        return reply["initramfs"] == true
    }
}
