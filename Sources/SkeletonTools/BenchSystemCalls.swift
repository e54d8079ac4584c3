#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSkeletonSystem

/// The system calls of `skeletond bench-control`: a daemon process to measure, sockets to
/// drive it, and its counters in /proc. EINTR is retried here.
enum BenchSystemCalls {
    static func monotonicSeconds() -> Double { sk_monotonic_seconds() }

    /// posix_spawn(3) of `arguments`.
    static func spawn(_ arguments: [String]) throws(ToolError) -> pid_t {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
        guard result == 0 else { throw ToolError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }

    /// SIGTERM, then waitpid(2).
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// A blocking connection to a Unix stream socket (`sk_unix_connect`); nil when refused.
    static func connect(_ path: String) -> Int32? {
        let fd = sk_unix_connect(path)
        return fd >= 0 ? fd : nil
    }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// Sends all of `bytes` (blocking).
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, $0.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }

    /// Sends as much of `bytes` as the socket takes now; returns how much.
    static func sendWithoutWaiting(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return max(0, n)
    }

    /// read(2) into `buffer`; 0 at the end of the stream or on an error.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            return max(0, n)
        }
    }

    /// poll(2) for input on `fds`; the indices of those ready.
    static func readable(_ fds: [Int32], timeoutMilliseconds: Int32) -> [Int] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let count = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        guard count > 0 else { return [] }
        return entries.indices.filter { entries[$0].revents != 0 }
    }

    static func sleep(seconds: Double) {
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) < 0 && errno == EINTR { pause = remaining }
    }

    static func writeFile(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        sendAllToFile(fd, Array(text.utf8))
        _ = Glibc.close(fd)
    }

    private static func sendAllToFile(_ fd: Int32, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }

    static func makeDirectory(_ path: String) { _ = mkdir(path, 0o700) }
    static func removeFile(_ path: String) { _ = unlink(path) }
    static func removeDirectory(_ path: String) { _ = rmdir(path) }

    /// The fields of /proc/PID/status, by name (values without their unit).
    static func processStatus(_ pid: pid_t) -> [String: Int] {
        let fd = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [:] }
        defer { _ = Glibc.close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = read(fd, into: &chunk), n > 0 { text += chunk[0..<n] }
        var fields: [String: Int] = [:]
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") else { continue }
            fields[String(parts[0])] = value
        }
        return fields
    }

    static var processID: pid_t { getpid() }
    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
