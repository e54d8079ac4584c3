import SkeletonSystem

/// What `skeletond bench-control` does to the world, over SkeletonSystem's calls: a daemon
/// process to measure, sockets to drive it, and its counters in /proc.
enum BenchIO {
    static func monotonicSeconds() -> Double { SystemCalls.monotonicSeconds() }

    static func spawn(_ arguments: [String]) throws(ToolError) -> Int32 {
        do { return try SystemCalls.spawn(arguments) } catch {
            throw ToolError("cannot start \(arguments[0]): \(error.text)")
        }
    }

    static func stop(_ pid: Int32) { SystemCalls.terminateAndWait(pid) }

    /// A blocking connection to a Unix stream socket; nil when refused.
    static func connect(_ path: String) -> FileDescriptor? { try? SystemCalls.unixConnect(path) }

    static func close(_ fd: FileDescriptor) { fd.close() }

    /// Sends all of `bytes` (blocking).
    static func sendAll(_ fd: FileDescriptor, _ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in try? fd.send(UnsafeRawBufferPointer(rebasing: raw[done...])) }
            guard let n, n > 0 else { return }
            done += n
        }
    }

    /// Sends as much of `bytes` as the socket takes now; returns how much.
    static func sendWithoutWaiting(_ fd: FileDescriptor, _ bytes: [UInt8]) -> Int { SystemCalls.sendWithoutWaiting(fd, bytes) }

    /// read(2) into `buffer`; 0 at the end of the stream or on an error.
    static func read(_ fd: FileDescriptor, into buffer: inout [UInt8]) -> Int {
        let n = buffer.withUnsafeMutableBytes { raw in try? fd.read(into: raw) }
        return n ?? 0
    }

    /// poll(2) for input on `fds`; the indices of those ready.
    static func readable(_ fds: [FileDescriptor], timeoutMilliseconds: Int32) -> [Int] {
        let ready = SystemCalls.pollReady(fds.map { Watch(descriptor: $0, events: .readable) }, timeoutMilliseconds: timeoutMilliseconds)
        return fds.indices.filter { i in ready.contains { $0.descriptor == fds[i] } }
    }

    static func sleep(seconds: Double) { SystemCalls.sleep(seconds: seconds) }

    static func writeFile(_ path: String, _ text: String) { try? SystemCalls.writeFile(path, Array(text.utf8)) }

    static func makeDirectory(_ path: String) { try? SystemCalls.makeDirectory(path, mode: 0o700) }
    static func removeFile(_ path: String) { try? SystemCalls.unlink(path) }
    static func removeDirectory(_ path: String) { try? SystemCalls.removeDirectory(path) }

    /// The fields of /proc/PID/status, by name (values without their unit).
    static func processStatus(_ pid: Int32) -> [String: Int] {
        guard let text = SystemCalls.readFile("/proc/\(pid)/status") else { return [:] }
        var fields: [String: Int] = [:]
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") else { continue }
            fields[String(parts[0])] = value
        }
        return fields
    }

    static var processID: Int32 { SystemCalls.processID }
    static func environment(_ name: String) -> String? { SystemCalls.environment(name) }
}
