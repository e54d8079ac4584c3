#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSkeletonSystem

/// Every system call of the daemon goes through here. EINTR is retried in one place.
enum SystemCalls {
    /// Runs `body` again while it fails with EINTR; other failures become `Errno`.
    @inline(__always)
    static func retryingOnInterrupt<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(Errno) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw Errno.current(call) }
        }
    }

    /// read(2); nil when the descriptor would block.
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try retryingOnInterrupt("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        } catch where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK {
            return nil
        }
    }

    /// write(2) with MSG_NOSIGNAL semantics for sockets (send); nil when it would block.
    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try retryingOnInterrupt("send") { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
        } catch where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK {
            return nil
        }
    }

    /// write(2) until all of `bytes` is written or the descriptor fails.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                try? retryingOnInterrupt("write") { Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
            guard let written, written > 0 else { return }
            offset += written
        }
    }

    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// poll(2) with a timeout in milliseconds (-1: forever); the watches that are ready, with
    /// what they are ready for. EINTR counts as nothing ready (the loop turns again).
    static func pollReady(_ watches: [Watch], timeoutMilliseconds: Int32) -> [Watch] {
        var fds = watches.map { pollfd(fd: $0.descriptor, events: $0.events.rawValue, revents: 0) }
        let result = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        guard result > 0 else { return [] }
        return fds.compactMap { $0.revents == 0 ? nil : Watch(descriptor: $0.fd, events: PollEvents(rawValue: $0.revents)) }
    }

    static func unixListen(_ path: String, backlog: Int32) throws(Errno) -> Int32 {
        try retryingOnInterrupt("bind \(path)") { sk_unix_listen(path, backlog) }
    }

    static func unixConnect(_ path: String) throws(Errno) -> Int32 {
        try retryingOnInterrupt("connect \(path)") { sk_unix_connect(path) }
    }

    /// accept4(2); nil when no connection is waiting.
    static func accept(_ fd: Int32) throws(Errno) -> Int32? {
        let client = sk_accept(fd)
        if client >= 0 { return client }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED { return nil }
        throw Errno.current("accept")
    }

    static func peerCredentials(_ fd: Int32) throws(Errno) -> (uid: UInt32, gid: UInt32, pid: Int32) {
        var uid: UInt32 = 0, gid: UInt32 = 0, pid: Int32 = 0
        _ = try retryingOnInterrupt("getsockopt SO_PEERCRED") { sk_peer_credentials(fd, &uid, &gid, &pid) }
        return (uid, gid, pid)
    }

    static func chmod(_ path: String, _ mode: UInt32) throws(Errno) {
        _ = try retryingOnInterrupt("chmod \(path)") { Glibc.chmod(path, mode_t(mode)) }
    }

    static func chown(_ path: String, group: UInt32) throws(Errno) {
        _ = try retryingOnInterrupt("chown \(path)") { Glibc.chown(path, uid_t.max, gid_t(group)) }
    }

    static func unlink(_ path: String) throws(Errno) {
        _ = try retryingOnInterrupt("unlink \(path)") { Glibc.unlink(path) }
    }

    /// lstat(2): whether the path exists and is a socket.
    static func isSocketFile(_ path: String) -> Bool? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFSOCK
    }

    static func makeDirectory(_ path: String, mode: UInt32) throws(Errno) {
        if Glibc.mkdir(path, mode_t(mode)) < 0 && errno != EEXIST { throw Errno.current("mkdir \(path)") }
    }

    /// mkdir(2) of the directory and of any missing parent (`mkdir -p`).
    static func makeDirectories(_ path: String, mode: UInt32) throws(Errno) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            try makeDirectory(prefix, mode: mode)
        }
    }

    static func signalDescriptor() throws(Errno) -> Int32 {
        try retryingOnInterrupt("signalfd") { sk_signalfd() }
    }

    static func readSignal(_ fd: Int32) -> Int32? {
        let n = sk_read_signal(fd)
        return n > 0 ? n : nil
    }

    static func timerDescriptor() throws(Errno) -> Int32 {
        try retryingOnInterrupt("timerfd_create") { sk_timerfd() }
    }

    /// Arms the timer at a monotonic time, or disarms it with nil.
    static func armTimer(_ fd: Int32, at time: Double?) throws(Errno) {
        _ = try retryingOnInterrupt("timerfd_settime") { sk_timerfd_arm(fd, time.map { max($0, 1e-9) } ?? 0) }
    }

    static func drainTimer(_ fd: Int32) { sk_timerfd_drain(fd) }

    static func monotonicSeconds() -> Double { sk_monotonic_seconds() }

    static func processAgeSeconds() -> Double? {
        let age = sk_process_age_seconds()
        return age >= 0 ? age : nil
    }

    static func notify(socket: String, message: String) throws(Errno) {
        _ = try retryingOnInterrupt("sendto \(socket)") { sk_notify(socket, message) }
    }

    static func isUnixListener(_ fd: Int32) -> Bool { sk_is_unix_listener(fd) != 0 }

    static func setCloseOnExec(_ fd: Int32) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    static var processID: Int32 { getpid() }
    static var effectiveUserID: UInt32 { geteuid() }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    static func unsetEnvironment(_ name: String) { unsetenv(name) }

    /// A whole regular file of at most `limit` bytes, read to its end (files in /proc report
    /// no size), or nil when it cannot be read or is larger.
    static func readFile(_ path: String, limit: Int = 16 << 20) -> [UInt8]? {
        guard let fd = try? openForReading(path) else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            guard let n = try? chunk.withUnsafeMutableBytes({ buffer throws(Errno) in
                try retryingOnInterrupt("read \(path)") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }) else { return nil }
            if n == 0 { return result }
            result += chunk[0..<n]
            if result.count > limit { return nil }
        }
    }

    static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Creates an empty file (or leaves an existing one).
    static func createFile(_ path: String) throws(Errno) {
        let fd = try retryingOnInterrupt("open \(path)") { open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
        Glibc.close(fd)
    }

    /// The executable's GNU build id (`sk_build_id`, through dl_iterate_phdr); nil without one.
    static func buildID() -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBufferPointer { sk_build_id($0.baseAddress, Int32($0.count)) }
        return count > 0 ? Array(bytes[0..<Int(count)]) : nil
    }

    /// The build id as `buildID()` finds it, lent to `body` from the stack; nil without one.
    static func withBuildID<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            let count = sk_build_id(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raw.count))
            return count > 0 ? body(UnsafeRawBufferPointer(start: raw.baseAddress, count: Int(count))) : nil
        }
    }

    /// A whole file of at most `limit` bytes, lent to `body` from memory of its own (no array:
    /// the boot record's path reads files with this); nil when it cannot be read or is larger.
    static func withFileBytes<R>(_ path: String, limit: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        guard let fd = try? openForReading(path) else { return nil }
        defer { close(fd) }
        guard let size = try? fileSize(fd), size <= limit else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 8)
        defer { buffer.deallocate() }
        guard (try? readFully(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]))) == true else { return nil }
        return body(UnsafeRawBufferPointer(rebasing: buffer[0..<size]))
    }

    /// open(2) for reading, of a regular file only: opened without blocking and checked with
    /// fstat(2), so that a FIFO or a device where a file is expected cannot hang the daemon.
    static func openForReading(_ path: String) throws(Errno) -> Int32 {
        let fd = try retryingOnInterrupt("open \(path)") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let code = errno == 0 || info.st_mode & S_IFMT != S_IFREG ? EINVAL : errno
            Glibc.close(fd)
            throw Errno(code, call: "open \(path) (not a regular file)")
        }
        return fd
    }

    /// The size of an open file (fstat(2)).
    static func fileSize(_ fd: Int32) throws(Errno) -> Int {
        var info = stat()
        _ = try retryingOnInterrupt("fstat") { fstat(fd, &info) }
        return Int(info.st_size)
    }

    /// read(2) until `buffer` is full; false when the file ends first.
    static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = try retryingOnInterrupt("read") { Glibc.read(fd, buffer.baseAddress! + done, buffer.count - done) }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// Writes `parts` to a temporary file beside `path`, then renames it over `path`, so a reader
    /// sees the old file or the whole new one.
    static func writeFileAtomically(_ path: String, _ parts: [UnsafeRawBufferPointer]) throws(Errno) {
        let temporary = path + ".\(getpid()).tmp"
        _ = Glibc.unlink(temporary)  // left by a crashed process that had our pid
        let fd = try retryingOnInterrupt("open \(temporary)") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        do {
            for part in parts {
                var done = 0
                while done < part.count {
                    done += try retryingOnInterrupt("write \(temporary)") { Glibc.write(fd, part.baseAddress! + done, part.count - done) }
                }
            }
            _ = try retryingOnInterrupt("fsync \(temporary)") { fsync(fd) }
        } catch {
            Glibc.close(fd)
            _ = Glibc.unlink(temporary)
            throw error
        }
        Glibc.close(fd)
        if Glibc.rename(temporary, path) != 0 {
            let error = Errno.current("rename \(temporary)")
            _ = Glibc.unlink(temporary)
            throw error
        }
    }

    /// The names in a directory (readdir(3)), without "." and ".."; empty when it cannot be read.
    static func directoryEntries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
