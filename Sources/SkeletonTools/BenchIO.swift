#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SkeletonSystem

/// What `skeletond bench-control` does to the world, over SkeletonSystem's calls: a daemon
/// process to measure, sockets to drive it, and its counters in /proc. (The few calls
/// SkeletonSystem has no use for, a FIFO's writing end and the peak memory's reset, are made
/// here directly.)
enum BenchIO {
    static func monotonicSeconds() -> Double { SystemCalls.monotonicSeconds() }

    static func spawn(_ arguments: [String]) throws(ToolError) -> Int32 {
        do { return try SystemCalls.spawn(arguments) } catch {
            throw ToolError("cannot start \(arguments[0]): \(error.text)")
        }
    }

    /// `arguments` started with its standard error appended to `logPath` (through /bin/sh,
    /// which execs it: the process id is the program's).
    static func spawn(_ arguments: [String], standardErrorTo logPath: String) throws(ToolError) -> Int32 {
        try spawn(["/bin/sh", "-c", "log=$1; shift; exec \"$@\" 2>>\"$log\"", "sh", logPath] + arguments)
    }

    static func stop(_ pid: Int32) { SystemCalls.terminateAndWait(pid) }

    /// Whether `pid` still runs (a zombie counts as ended).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let status = SystemCalls.readFile("/proc/\(pid)/stat") else { return false }
        let afterName = status.lastIndex(of: UInt8(ascii: ")")).map { status[($0 + 2)...] } ?? []
        return afterName.first.map { $0 != UInt8(ascii: "Z") && $0 != UInt8(ascii: "X") } ?? false
    }

    /// The writing end of a FIFO, without blocking (open and writes); nil when it cannot be opened.
    static func openForWriting(_ path: String) -> FileDescriptor? {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        return fd < 0 ? nil : FileDescriptor(rawValue: fd)
    }

    /// write(2) of as much of `bytes[offset...]` as the descriptor takes now; 0 when it takes nothing.
    static func writeWithoutWaiting(_ fd: FileDescriptor, _ bytes: [UInt8], from offset: Int) -> Int {
        guard offset < bytes.count else { return 0 }
        let n = bytes.withUnsafeBytes { raw in write(fd.rawValue, raw.baseAddress! + offset, raw.count - offset) }
        return max(n, 0)
    }

    /// poll(2) for `watches`; those ready, with what they are ready for.
    static func ready(_ watches: [Watch], timeoutMilliseconds: Int32) -> [Watch] {
        SystemCalls.pollReady(watches, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Starts `pid`'s peak resident memory (VmHWM) again from its present size (clear_refs 5).
    static func resetPeakMemory(_ pid: Int32) {
        let fd = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        FileDescriptor(rawValue: fd).close()
    }

    static func fileExists(_ path: String) -> Bool { SystemCalls.fileExists(path) }

    /// A whole file (up to `limit` bytes); nil when it cannot be read.
    static func readFile(_ path: String, limit: Int = 16 << 20) -> [UInt8]? { SystemCalls.readFile(path, limit: limit) }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(ToolError) {
        do { try SystemCalls.writeFile(path, bytes) } catch { throw ToolError("cannot write \(path): \(error.text)") }
    }

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

    /// The descriptors `pid` has open.
    static func descriptorCount(_ pid: Int32) -> Int { SystemCalls.directoryEntries("/proc/\(pid)/fd").count }

    static var processID: Int32 { SystemCalls.processID }
    static func environment(_ name: String) -> String? { SystemCalls.environment(name) }
}
