#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSkeletonSystem

/// Every system call of skeletond goes through here (libdrm's excepted: SkeletonDisplay's
/// DRMCalls). EINTR is retried in one place, `retryingOnInterrupt`.
package enum SystemCalls {
    /// Runs `body` again while it fails with EINTR; other failures become `Errno`.
    @inline(__always)
    static func retryingOnInterrupt<T: BinaryInteger>(_ call: @autoclosure () -> String, _ body: () -> T) throws(Errno) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            if errno != EINTR { throw Errno.current(call()) }
        }
    }

    // MARK: errno

    package static var lastErrno: Int32 { errno }
    package static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
    package static func isWouldBlock(_ code: Int32) -> Bool { code == EAGAIN || code == EWOULDBLOCK }
    /// EPROTO: how libwayland says the compositor sent a protocol error.
    package static func isProtocolError(_ code: Int32) -> Bool { code == EPROTO }
    package static func isNoSuchFile(_ code: Int32) -> Bool { code == ENOENT }
    static func isPermissionDenied(_ code: Int32) -> Bool { code == EACCES || code == EPERM }

    // MARK: descriptors

    /// read(2); nil when the descriptor would block.
    static func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try retryingOnInterrupt("read") { Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count) }
        } catch where error.wouldBlock {
            return nil
        }
    }

    /// read(2) until `buffer` is full; false when the file ends first.
    static func readFully(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = try retryingOnInterrupt("read") { Glibc.read(fd.rawValue, buffer.baseAddress! + done, buffer.count - done) }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// send(2) with MSG_NOSIGNAL; nil when it would block.
    static func send(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int? {
        do {
            return try retryingOnInterrupt("send") { Glibc.send(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
        } catch where error.wouldBlock {
            return nil
        }
    }

    /// send(2) with MSG_DONTWAIT: as much as the socket takes now (0 when it takes nothing).
    package static func sendWithoutWaiting(_ fd: FileDescriptor, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { sendWithoutWaiting(fd, $0) }
    }

    /// `sendWithoutWaiting` of bytes in memory the caller owns (a secret, wiped afterwards).
    package static func sendWithoutWaiting(_ fd: FileDescriptor, _ raw: UnsafeRawBufferPointer) -> Int {
        let n = try? retryingOnInterrupt("send") { Glibc.send(fd.rawValue, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return n ?? 0
    }

    /// write(2) until all of `bytes` is written or the descriptor fails.
    static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                try? retryingOnInterrupt("write") { Glibc.write(fd.rawValue, raw.baseAddress! + offset, raw.count - offset) }
            }
            guard let written, written > 0 else { return }
            offset += written
        }
    }

    static func close(_ fd: FileDescriptor) { _ = Glibc.close(fd.rawValue) }

    /// The size of an open file (fstat(2)).
    static func fileSize(_ fd: FileDescriptor) throws(Errno) -> Int {
        var info = stat()
        _ = try retryingOnInterrupt("fstat") { fstat(fd.rawValue, &info) }
        return Int(info.st_size)
    }

    static func setCloseOnExec(_ fd: FileDescriptor) { _ = fcntl(fd.rawValue, F_SETFD, FD_CLOEXEC) }

    static func setNonBlocking(_ fd: FileDescriptor) {
        let flags = fcntl(fd.rawValue, F_GETFL)
        if flags >= 0 { _ = fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// poll(2) with a timeout in milliseconds (-1: forever); the watches that are ready, with
    /// what they are ready for. EINTR counts as nothing ready (the caller turns again).
    package static func pollReady(_ watches: [Watch], timeoutMilliseconds: Int32) -> [Watch] {
        var fds = watches.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events.rawValue, revents: 0) }
        let result = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        guard result > 0 else { return [] }
        return fds.compactMap {
            $0.revents == 0 ? nil : Watch(descriptor: FileDescriptor(rawValue: $0.fd), events: PollEvents(rawValue: $0.revents))
        }
    }

    // MARK: sockets

    /// A non-blocking listening Unix stream socket bound at `path` (`sk_unix_listen`).
    package static func unixListen(_ path: String, backlog: Int32) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("bind \(path)") { sk_unix_listen(path, backlog) })
    }

    /// A blocking connection to a Unix stream socket (`sk_unix_connect`).
    package static func unixConnect(_ path: String) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("connect \(path)") { sk_unix_connect(path) })
    }

    /// accept4(2); nil when no connection is waiting.
    package static func accept(_ fd: FileDescriptor) throws(Errno) -> FileDescriptor? {
        let client = sk_accept(fd.rawValue)
        if client >= 0 { return FileDescriptor(rawValue: client) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED { return nil }
        throw Errno.current("accept")
    }

    /// getsockopt(2) SO_PEERCRED.
    package static func peerCredentials(_ fd: FileDescriptor) throws(Errno) -> (uid: UInt32, gid: UInt32, pid: Int32) {
        var uid: UInt32 = 0, gid: UInt32 = 0, pid: Int32 = 0
        _ = try retryingOnInterrupt("getsockopt SO_PEERCRED") { sk_peer_credentials(fd.rawValue, &uid, &gid, &pid) }
        return (uid, gid, pid)
    }

    /// Whether `fd` is a listening Unix stream socket (socket activation).
    package static func isUnixListener(_ fd: FileDescriptor) -> Bool { sk_is_unix_listener(fd.rawValue) != 0 }

    /// One datagram to $NOTIFY_SOCKET's address (`sk_notify`).
    package static func notify(socket: String, message: String) throws(Errno) {
        _ = try retryingOnInterrupt("sendto \(socket)") { sk_notify(socket, message) }
    }

    // MARK: signals, timers, directory watches

    /// Blocks SIGTERM, SIGINT and SIGHUP and returns a signalfd(2) for them (`sk_signalfd`);
    /// with `vtSignals`, SIGUSR1 and SIGUSR2 too (`vtReleaseSignal`, `vtAcquireSignal`).
    package static func signalDescriptor(vtSignals: Bool = false) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("signalfd") { sk_signalfd(vtSignals ? 1 : 0) })
    }

    /// ppoll(2) over `first` (when given) and `watches` until `deadline` on CLOCK_MONOTONIC
    /// (nil: no time limit; `sk_poll_until`): the watches that are ready, in that order, with
    /// what they are ready for. One system call a wait, and no array made for the descriptors.
    /// EINTR counts as nothing ready (the caller turns again).
    package static func pollReady(_ watches: [Watch], first: Watch?, until deadline: Double?) -> [Watch] {
        let count = watches.count + (first == nil ? 0 : 1)
        return withUnsafeTemporaryAllocation(of: pollfd.self, capacity: count) { fds in
            func entry(_ watch: Watch) -> pollfd { pollfd(fd: watch.descriptor.rawValue, events: watch.events.rawValue, revents: 0) }
            var i = 0
            if let first {
                fds[0] = entry(first)
                i = 1
            }
            for watch in watches {
                fds[i] = entry(watch)
                i += 1
            }
            guard sk_poll_until(fds.baseAddress, nfds_t(count), deadline ?? -1) > 0 else { return [] }
            var ready: [Watch] = []
            for fd in fds where fd.revents != 0 {
                ready.append(Watch(descriptor: FileDescriptor(rawValue: fd.fd), events: PollEvents(rawValue: fd.revents)))
            }
            return ready
        }
    }

    /// The next signal queued on a signalfd; nil when none is.
    package static func readSignal(_ fd: FileDescriptor) -> Int32? {
        let n = sk_read_signal(fd.rawValue)
        return n > 0 ? n : nil
    }

    /// inotify(7) on a directory for files created or moved in; nil when it cannot be watched.
    package static func watchDirectory(_ path: String) -> FileDescriptor? {
        let fd = sk_inotify_directory(path)
        return fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    /// Discards the queued inotify events.
    package static func drainDirectoryWatch(_ fd: FileDescriptor) { sk_inotify_drain(fd.rawValue) }

    /// inotify(7) on a directory for files written, moved in or out, or deleted
    /// (`sk_inotify_directory_changes`); nil when it cannot be watched.
    package static func watchDirectoryChanges(_ path: String) -> FileDescriptor? {
        let fd = sk_inotify_directory_changes(path)
        return fd >= 0 ? FileDescriptor(rawValue: fd) : nil
    }

    // MARK: secrets

    /// One datagram to the Unix socket at `path`, without waiting (`sk_send_datagram`: sendto(2)
    /// with MSG_DONTWAIT).
    package static func sendDatagram(to path: String, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        _ = try retryingOnInterrupt("sendto \(path)") {
            sk_send_datagram(path, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
    }

    /// prctl(2) PR_SET_DUMPABLE: false while a secret is in memory (no core file, no ptrace by
    /// other users).
    package static func setDumpable(_ dumpable: Bool) { _ = sk_set_dumpable(dumpable ? 1 : 0) }

    /// prctl(2) PR_GET_DUMPABLE.
    package static var isDumpable: Bool { sk_get_dumpable() == 1 }

    /// A character device node's major and minor numbers (stat(2)); nil when `path` is not one.
    package static func characterDeviceNumber(_ path: String) -> (major: UInt32, minor: UInt32)? {
        var major: UInt32 = 0, minor: UInt32 = 0
        guard sk_char_device_number(path, &major, &minor) == 0 else { return nil }
        return (major, minor)
    }

    /// explicit_bzero(3).
    package static func zero(_ pointer: UnsafeMutableRawBufferPointer) {
        guard let base = pointer.baseAddress else { return }
        sk_zero(base, pointer.count)
    }

    /// A socket(2) of the NETLINK_KOBJECT_UEVENT family on the kernel's uevent group (netlink(7)).
    package static func ueventSocket() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("socket(NETLINK_KOBJECT_UEVENT)") { sk_uevent_socket() })
    }

    /// recvfrom(2) of one kernel uevent into `buffer`: its length, nil when none is queued.
    /// ENOBUFS means the socket overflowed and some were lost.
    package static func receiveUevent(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        let n = try retryingOnInterrupt("recvfrom(uevent)") {
            sk_uevent_receive(fd.rawValue, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(buffer.count))
        }
        return n == 0 ? nil : Int(n)
    }

    package static func isBufferOverflow(_ code: Int32) -> Bool { code == ENOBUFS }

    package static let hangUpSignal = SIGHUP
    package static let terminationSignal = SIGTERM
    /// What a VT in VT_PROCESS mode sends to ask for a switch away (`setProcessMode`).
    package static let vtReleaseSignal = SIGUSR1
    /// What a VT in VT_PROCESS mode sends when it is switched back to.
    package static let vtAcquireSignal = SIGUSR2

    // MARK: framebuffers and the console

    /// open(2) for reading and writing (a device: a DRM card, a framebuffer, a console).
    package static func openDevice(_ path: String, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        let flags = O_RDWR | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
        return FileDescriptor(rawValue: try retryingOnInterrupt("open \(path)") { open(path, flags) })
    }

    /// FBIOGET_VSCREENINFO and FBIOGET_FSCREENINFO (`sk_fb_info`).
    package static func framebufferInfo(_ fd: FileDescriptor) throws(Errno) -> FramebufferInfo {
        var raw = sk_fb_info()
        _ = try retryingOnInterrupt("FBIOGET_VSCREENINFO") { sk_fb_info(fd.rawValue, &raw) }
        let id = withUnsafeBytes(of: raw.id) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return FramebufferInfo(id: id, width: Int(raw.xres), height: Int(raw.yres), virtualWidth: Int(raw.xres_virtual),
                               virtualHeight: Int(raw.yres_virtual), xOffset: Int(raw.xoffset), yOffset: Int(raw.yoffset),
                               bitsPerPixel: Int(raw.bits_per_pixel),
                               red: .init(offset: Int(raw.red_offset), length: Int(raw.red_length)),
                               green: .init(offset: Int(raw.green_offset), length: Int(raw.green_length)),
                               blue: .init(offset: Int(raw.blue_offset), length: Int(raw.blue_length)),
                               lineLength: Int(raw.line_length), memoryLength: Int(raw.smem_len), panStep: Int(raw.ypanstep))
    }

    /// FBIOPAN_DISPLAY to row `y` of the virtual screen.
    package static func panFramebuffer(_ fd: FileDescriptor, y: Int) throws(Errno) {
        _ = try retryingOnInterrupt("FBIOPAN_DISPLAY") { sk_fb_pan(fd.rawValue, 0, UInt32(y)) }
    }

    /// mmap(2) of `length` bytes of a device from `offset`, shared, for reading and writing.
    package static func mapShared(_ fd: FileDescriptor, length: Int, offset: UInt64 = 0) throws(Errno) -> UnsafeMutableRawPointer {
        let pointer = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, off_t(offset))
        guard let pointer, pointer != MAP_FAILED else { throw Errno.current("mmap") }
        return pointer
    }

    /// `sk_shared_memory`: memfd_create(2) and ftruncate(2), anonymous shared memory of `size`
    /// bytes to map and hand to another process (a Wayland compositor's wl_shm pool).
    package static func sharedMemory(name: String, size: Int) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("memfd_create") { sk_shared_memory(name, Int64(size)) })
    }

    /// munmap(2).
    package static func unmap(_ pointer: UnsafeMutableRawPointer, length: Int) { _ = munmap(pointer, length) }

    /// KDGETMODE: whether the console shows text (false) or leaves the screen to graphics (true);
    /// nil when `fd` is not a console.
    package static func consoleIsGraphics(_ fd: FileDescriptor) -> Bool? {
        let mode = sk_kd_is_graphics(fd.rawValue)
        return mode < 0 ? nil : mode == 1
    }

    /// KDSETMODE KD_GRAPHICS (the console stops drawing) or KD_TEXT (it redraws its text).
    package static func setConsoleGraphics(_ fd: FileDescriptor, _ graphics: Bool) throws(Errno) {
        _ = try retryingOnInterrupt("KDSETMODE") { sk_kd_set_graphics(fd.rawValue, graphics ? 1 : 0) }
    }

    // MARK: virtual terminals

    /// open(2) of a console (`/dev/tty0`, `/dev/ttyN`) for reading and writing, with O_NOCTTY:
    /// it never becomes the daemon's controlling terminal.
    package static func openConsole(_ path: String) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("open \(path)") { open(path, O_RDWR | O_CLOEXEC | O_NOCTTY) })
    }

    /// VT_GETSTATE (`sk_vt_active`): the number of the VT shown now (1 for tty1).
    package static func activeVT(_ fd: FileDescriptor) throws(Errno) -> Int {
        Int(try retryingOnInterrupt("VT_GETSTATE") { sk_vt_active(fd.rawValue) })
    }

    /// VT_SETMODE with `mode = VT_PROCESS`, `relsig = SIGUSR1`, `acqsig = SIGUSR2`
    /// (`sk_vt_set_process_mode`) on the VT `fd` is open on: a switch away waits for this
    /// process's `releaseVT`.
    package static func setVTProcessMode(_ fd: FileDescriptor) throws(Errno) {
        _ = try retryingOnInterrupt("VT_SETMODE VT_PROCESS") { sk_vt_set_process_mode(fd.rawValue) }
    }

    /// VT_SETMODE with `mode = VT_AUTO` (`sk_vt_set_auto_mode`): the kernel switches by itself.
    package static func setVTAutoMode(_ fd: FileDescriptor) throws(Errno) {
        _ = try retryingOnInterrupt("VT_SETMODE VT_AUTO") { sk_vt_set_auto_mode(fd.rawValue) }
    }

    /// VT_RELDISP 1 (`sk_vt_release`): the switch away that SIGUSR1 asked for goes on.
    package static func releaseVT(_ fd: FileDescriptor) throws(Errno) {
        _ = try retryingOnInterrupt("VT_RELDISP 1") { sk_vt_release(fd.rawValue) }
    }

    /// VT_RELDISP VT_ACKACQ (`sk_vt_acknowledge_acquire`): the switch back is acknowledged.
    package static func acknowledgeVTAcquire(_ fd: FileDescriptor) throws(Errno) {
        _ = try retryingOnInterrupt("VT_RELDISP VT_ACKACQ") { sk_vt_acknowledge_acquire(fd.rawValue) }
    }

    // MARK: time and the process

    /// CLOCK_MONOTONIC in seconds.
    package static func monotonicSeconds() -> Double { sk_monotonic_seconds() }

    /// Seconds since this process started; nil when /proc cannot tell.
    package static func processAgeSeconds() -> Double? {
        let age = sk_process_age_seconds()
        return age >= 0 ? age : nil
    }

    /// clock_gettime(2) of CLOCK_PROCESS_CPUTIME_ID in seconds: the CPU time of all the
    /// process's threads so far.
    package static func processCPUSeconds() -> Double { sk_process_cpu_seconds() }

    /// nanosleep(2), resumed after a signal.
    package static func sleep(seconds: Double) {
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) < 0 && errno == EINTR { pause = remaining }
    }

    // MARK: threads and counters

    /// eventfd(2), close-on-exec: a counter one side adds to and the other waits on. `blocking`:
    /// a read waits for a count (a worker's queue); else it returns at once (polled by the loop).
    package static func eventCounter(blocking: Bool) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingOnInterrupt("eventfd") { sk_eventfd(blocking ? 1 : 0) })
    }

    /// Adds one to an eventfd(2) counter (write(2) of a 64-bit 1).
    package static func addToCounter(_ fd: FileDescriptor) {
        var one: UInt64 = 1
        _ = try? retryingOnInterrupt("write") { Glibc.write(fd.rawValue, &one, 8) }
    }

    /// Reads an eventfd(2) counter back to zero: waits for a count when it is blocking; false
    /// when a non-blocking one was at zero.
    @discardableResult
    package static func takeCounter(_ fd: FileDescriptor) -> Bool {
        var count: UInt64 = 0
        return ((try? retryingOnInterrupt("read") { Glibc.read(fd.rawValue, &count, 8) }) ?? 0) == 8
    }

    /// pthread_create(3) of a detached thread running `body`, at `niceness` (`sk_set_thread_niceness`:
    /// setpriority(2) on its own thread id, since Linux schedules threads one by one), with every
    /// signal blocked (a SIGTERM must reach the loop's signalfd, not end the process here).
    package static func startThread(niceness: Int32, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        final class Start: @unchecked Sendable {
            let body: @Sendable () -> Void
            let niceness: Int32
            init(_ body: @escaping @Sendable () -> Void, niceness: Int32) { self.body = body; self.niceness = niceness }
        }
        let start = Unmanaged.passRetained(Start(body, niceness: niceness)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { raw in
            let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
            sk_block_thread_signals()
            _ = sk_set_thread_niceness(start.niceness)
            start.body()
            return nil
        }, start)
        if result != 0 {
            Unmanaged<Start>.fromOpaque(start).release()
            throw Errno(result, call: "pthread_create")
        }
    }

    /// Whether the calling thread blocks `signal`.
    package static func threadBlocks(_ signal: Int32) -> Bool { sk_thread_blocks_signal(signal) == 1 }

    package static var processID: Int32 { getpid() }
    package static var effectiveUserID: UInt32 { geteuid() }

    package static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    package static func unsetEnvironment(_ name: String) { unsetenv(name) }

    /// _exit-free exit(3): flushes stdio, as a command-line tool should.
    package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// pipe(2), close-on-exec both ends (set at once: nothing else in the process starts programs meanwhile): (read, write).
    package static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [0, 0]
        _ = try retryingOnInterrupt("pipe") { Glibc.pipe(&ends) }
        ends.forEach { setCloseOnExec(FileDescriptor(rawValue: $0)) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// posix_spawn(3) of `arguments` (a path, or a name looked up in PATH) with `descriptors`
    /// given to it at the numbers named (posix_spawn_file_actions_adddup2), and its standard
    /// output and error sent to /dev/null when `quiet`.
    package static func spawn(_ arguments: [String], descriptors: [Int32: FileDescriptor], quiet: Bool) throws(Errno) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, fd) in descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, fd.rawValue, number)
        }
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ)
        guard result == 0 else { throw Errno(result, call: "posix_spawn \(arguments[0])") }
        return pid
    }

    /// posix_spawn(3) of `arguments` (the first is the executable's path).
    package static func spawn(_ arguments: [String]) throws(Errno) -> Int32 {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
        guard result == 0 else { throw Errno(result, call: "posix_spawn \(arguments[0])") }
        return pid
    }

    /// waitpid(2) for `pid` to end: how it ended.
    package static func waitForEnd(_ pid: Int32) -> ProcessEnd {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal)
    }

    /// SIGTERM to `pid`, then waitpid(2) for it.
    package static func terminateAndWait(_ pid: Int32) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// The executable's GNU build id (`sk_build_id`, through dl_iterate_phdr); nil without one.
    package static func buildID() -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBufferPointer { sk_build_id($0.baseAddress, Int32($0.count)) }
        return count > 0 ? Array(bytes[0..<Int(count)]) : nil
    }

    /// The build id as `buildID()` finds it, lent to `body` from the stack; false without one.
    /// Not generic, like `withFileBytes`: the boot path calls it from another module, where a
    /// generic function would run unspecialized and instantiate type metadata.
    package static func withBuildID(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            let count = sk_build_id(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(raw.count))
            guard count > 0 else { return false }
            body(UnsafeRawBufferPointer(start: raw.baseAddress, count: Int(count)))
            return true
        }
    }

    // MARK: files

    /// open(2) for reading, of a regular file only: opened without blocking and checked with
    /// fstat(2), so that a FIFO or a device where a file is expected cannot hang the daemon.
    package static func openRegularFile(_ path: String) -> Result<FileDescriptor, FileReadError> {
        let fd: Int32
        do { fd = try retryingOnInterrupt("open \(path)") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } } catch {
            return .failure(.failed(error))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = Errno.current("fstat \(path)")
            Glibc.close(fd)
            return .failure(.failed(error))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            Glibc.close(fd)
            return .failure(kind == S_IFDIR ? .directory : .notRegular)
        }
        return .success(FileDescriptor(rawValue: fd))
    }

    /// The first `limit` bytes of a virtual console's screen (`/dev/vcs`: one byte a cell) or of a
    /// regular file standing for one; nil when it cannot be read.
    package static func readConsoleScreen(_ path: String, limit: Int = 64 << 10) -> [UInt8]? {
        guard let fd = try? retryingOnInterrupt("open \(path)", { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }) else { return nil }
        defer { Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let n = bytes.withUnsafeMutableBytes { buffer in
                (try? retryingOnInterrupt("read \(path)") { Glibc.read(fd, buffer.baseAddress! + count, limit - count) }) ?? -1
            }
            if n < 0 { return nil }
            if n == 0 { break }
            count += n
        }
        return Array(bytes[0..<count])
    }

    /// `openRegularFile`, for callers that only need to know whether it worked (the boot path:
    /// no `Result` of ours on it).
    package static func openForReading(_ path: String) -> FileDescriptor? {
        guard let fd = try? retryingOnInterrupt("open", { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }) else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            Glibc.close(fd)
            return nil
        }
        return FileDescriptor(rawValue: fd)
    }

    /// A whole regular file of at most `limit` bytes, read to its end (files in /proc report no
    /// size), or why not.
    package static func readRegularFile(_ path: String, limit: Int = 16 << 20) -> Result<[UInt8], FileReadError> {
        let fd: FileDescriptor
        switch openRegularFile(path) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        defer { close(fd) }
        if let size = try? fileSize(fd), size > limit { return .failure(.tooLarge(size: size, limit: limit)) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try retryingOnInterrupt("read \(path)") { Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count) } }
            }
            let n: Int
            switch read {
            case .success(let count): n = count
            case .failure(let error): return .failure(.failed(error))
            }
            if n == 0 { return .success(result) }
            result += chunk[0..<n]
            if result.count > limit { return .failure(.tooLarge(size: result.count, limit: limit)) }
        }
    }

    /// `readRegularFile`, for callers that only need the bytes.
    package static func readFile(_ path: String, limit: Int = 16 << 20) -> [UInt8]? { try? readRegularFile(path, limit: limit).get() }

    /// A whole file of at most `limit` bytes, lent to `body` from memory of its own (no array:
    /// the boot path reads files with this); false when it cannot be read or is larger.
    package static func withFileBytes(_ path: String, limit: Int, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard let fd = openForReading(path) else { return false }
        defer { close(fd) }
        guard let size = try? fileSize(fd), size <= limit else { return false }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(size, 1), alignment: 8)
        defer { buffer.deallocate() }
        guard (try? readFully(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size]))) == true else { return false }
        body(UnsafeRawBufferPointer(rebasing: buffer[0..<size]))
        return true
    }

    package static func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// getcwd(3); nil when it cannot be read.
    package static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// access(2) with X_OK: whether the path is a file this process may execute.
    package static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// The path of this process's executable (readlink of /proc/self/exe), nil when /proc is not there.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Makes `path` this process's root directory and working directory (chdir, chroot, chdir).
    /// Descriptors already open stay as they are.
    package static func changeRoot(_ path: String) throws(Errno) {
        _ = try retryingOnInterrupt("chdir \(path)") { chdir(path) }
        _ = try retryingOnInterrupt("chroot \(path)") { chroot(".") }
        _ = try retryingOnInterrupt("chdir /") { chdir("/") }
    }

    /// lstat(2): whether the path exists and is a socket; nil when it does not exist.
    package static func isSocketFile(_ path: String) -> Bool? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFSOCK
    }

    /// mkfifo(3) `path` (mode 0620: root writes, and the group it names) unless a FIFO is there,
    /// then open(2)s it for reading and writing without blocking: holding the write end too,
    /// the reader never sees end-of-file when a writer closes. Something else at `path` is an error.
    package static func openFIFO(_ path: String) throws(Errno) -> (FileDescriptor, made: Bool, identity: FileIdentity) {
        var info = stat()
        var made = false
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFIFO else { throw Errno(EEXIST, call: "mkfifo \(path) (something that is not a FIFO is there)") }
        } else {
            _ = try retryingOnInterrupt("mkfifo \(path)") { mkfifo(path, 0o620) }
            made = true
        }
        // O_NOFOLLOW: a symbolic link put there since is refused, not followed.
        let fd = try retryingOnInterrupt("open \(path)") { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW) }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            Glibc.close(fd)
            throw Errno(EEXIST, call: "open \(path) (something that is not a FIFO is there)")
        }
        return (FileDescriptor(rawValue: fd), made, FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// lstat(2): the file at `path` itself (a symbolic link is not followed), nil when there is none.
    package static func identity(atPath path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Creates or truncates `path` and writes `bytes`. A new file's mode is 0666 less the umask, as
    /// a shell's redirection makes it: a layout written for /etc/skeletond/layouts must be
    /// readable by a kiosk's own user (the skeleton's window runs as that user).
    package static func writeFile(_ path: String, _ bytes: [UInt8]) throws(Errno) {
        let fd = try retryingOnInterrupt("open \(path)") { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666) }
        writeAll(FileDescriptor(rawValue: fd), bytes)
        Glibc.close(fd)
    }

    /// Writes `parts` to a temporary file beside `path`, then renames it over `path`, so a reader
    /// sees the old file or the whole new one, whenever the writer is killed. `durable`: fsync(2)
    /// of the file before the rename and of its directory after, so that a power cut can leave
    /// neither an empty file nor the old one back (not needed for what lasts one boot only).
    /// The temporary file's name is hidden (`.NAME.PID.tmp`): one a killed writer leaves is not
    /// taken for a file of the directory (the initramfs hooks copy the cache's `*`).
    package static func writeFileAtomically(_ path: String, _ parts: [UnsafeRawBufferPointer], durable: Bool = true) throws(Errno) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (slash == nil ? "" : directory + "/") + ".\(name).\(getpid()).tmp"
        _ = Glibc.unlink(temporary)  // left by a killed process that had our pid
        let fd = try retryingOnInterrupt("open \(temporary)") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        do {
            for part in parts {
                var done = 0
                while done < part.count {
                    done += try retryingOnInterrupt("write \(temporary)") { Glibc.write(fd, part.baseAddress! + done, part.count - done) }
                }
            }
            if durable { _ = try retryingOnInterrupt("fsync \(temporary)") { fsync(fd) } }
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
        if durable { try syncDirectory(directory) }
    }

    /// fsync(2) of a directory, which makes the names created or renamed in it last.
    package static func syncDirectory(_ path: String) throws(Errno) {
        let fd = try retryingOnInterrupt("open \(path)") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { Glibc.close(fd) }
        do throws(Errno) { _ = try retryingOnInterrupt("fsync \(path)") { fsync(fd) } } catch {
            // A file system that cannot sync a directory has nothing to sync there.
            if error.rawValue != EINVAL { throw error }
        }
    }

    /// mkdtemp(3): a new directory, readable by its owner only, named `prefix` and six random
    /// characters; its path.
    package static func makeTemporaryDirectory(prefix: String) throws(Errno) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw Errno.current("mkdtemp \(prefix)XXXXXX") }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package static func unlink(_ path: String) throws(Errno) {
        _ = try retryingOnInterrupt("unlink \(path)") { Glibc.unlink(path) }
    }

    /// symlink(2): `path` made a symbolic link to `target` (an existing `path` is an error).
    package static func symbolicLink(_ path: String, to target: String) throws(Errno) {
        _ = try retryingOnInterrupt("symlink \(path)") { Glibc.symlink(target, path) }
    }

    package static func removeDirectory(_ path: String) throws(Errno) {
        _ = try retryingOnInterrupt("rmdir \(path)") { rmdir(path) }
    }

    package static func chmod(_ path: String, _ mode: UInt32) throws(Errno) {
        _ = try retryingOnInterrupt("chmod \(path)") { Glibc.chmod(path, mode_t(mode)) }
    }

    package static func chown(_ path: String, group: UInt32) throws(Errno) {
        _ = try retryingOnInterrupt("chown \(path)") { Glibc.chown(path, uid_t.max, gid_t(group)) }
    }

    /// mkdir(2); an existing directory is no error.
    package static func makeDirectory(_ path: String, mode: UInt32) throws(Errno) {
        if Glibc.mkdir(path, mode_t(mode)) < 0 && errno != EEXIST { throw Errno.current("mkdir \(path)") }
    }

    /// mkdir(2) of the directory and of any missing parent (`mkdir -p`).
    package static func makeDirectories(_ path: String, mode: UInt32) throws(Errno) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            try makeDirectory(prefix, mode: mode)
        }
    }

    /// The names in a directory (readdir(3)), without "." and ".."; empty when it cannot be read.
    package static func directoryEntries(_ path: String) -> [String] {
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
