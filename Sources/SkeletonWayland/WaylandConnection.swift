import CSkeletonWayland
import SkeletonDisplay
import SkeletonSystem

/// The connection to the compositor (wl_display): events read only when poll(2) says the
/// socket is readable (wl_display_prepare_read, read_events, dispatch_pending), requests flushed
/// after each commit, and errors said with the protocol's own words.
final class WaylandConnection {
    private(set) var display: OpaquePointer?
    /// The socket's name ("wayland-0") or path.
    let socketName: String
    /// The compositor's program, from the socket's peer (/proc/PID/comm), with its PID.
    let compositorName: String

    /// wl_display_connect(3): `socket` is a name under XDG_RUNTIME_DIR or a path; nil takes
    /// WAYLAND_DISPLAY (else "wayland-0").
    init(socket: String?) throws(DisplayError) {
        let name = socket ?? SystemCalls.environment("WAYLAND_DISPLAY") ?? "wayland-0"
        guard let display = wl_display_connect(name) else {
            let runtime = SystemCalls.environment("XDG_RUNTIME_DIR")
            let place = name.hasPrefix("/") ? name : runtime.map { "\($0)/\(name)" } ?? "\(name) (XDG_RUNTIME_DIR is not set)"
            throw DisplayError("wayland: no compositor answers at \(place)")
        }
        self.display = display
        socketName = name
        let pid = skeleton_wayland_peer_pid(display)
        let program = pid > 0 ? SystemCalls.readFile("/proc/\(pid)/comm", limit: 64).map { String(decoding: $0, as: UTF8.self) } : nil
        let trimmed = program?.split(separator: "\n").first.map(String.init)
        compositorName = trimmed.map { "\($0) (pid \(pid))" } ?? "unknown"
    }

    deinit { disconnect() }

    /// wl_display_disconnect(3), once.
    func disconnect() {
        if let display { wl_display_disconnect(display) }
        display = nil
    }

    var descriptor: FileDescriptor? { display.map { FileDescriptor(rawValue: wl_display_get_fd($0)) } }

    /// Reads what the socket holds (poll said readable) and runs the listeners.
    func readAndDispatch() throws(DisplayError) {
        guard let display else { return }
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw failure() }
        }
        if wl_display_read_events(display) < 0 { throw failure() }
        if wl_display_dispatch_pending(display) < 0 { throw failure() }
    }

    /// Runs the listeners of events already read; sends what is queued.
    func dispatchQueued() throws(DisplayError) {
        guard let display else { return }
        if wl_display_dispatch_pending(display) < 0 { throw failure() }
        try flush()
    }

    /// wl_display_flush(3). A full socket (EAGAIN) keeps the rest queued for the next flush.
    func flush() throws(DisplayError) {
        guard let display else { return }
        if wl_display_flush(display) < 0, !SystemCalls.isWouldBlock(SystemCalls.lastErrno) { throw failure() }
    }

    /// Sends, reads and dispatches until `done` holds or `seconds` pass (a roundtrip that a
    /// compositor which stopped answering cannot hold forever). False on time out.
    func wait(seconds: Double, until done: () -> Bool) throws(DisplayError) -> Bool {
        guard let fd = descriptor else { return false }
        let deadline = SystemCalls.monotonicSeconds() + seconds
        while !done() {
            try dispatchQueued()
            if done() { return true }
            let left = deadline - SystemCalls.monotonicSeconds()
            guard left > 0 else { return false }
            let ready = SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: Int32(left * 1000) + 1)
            if !ready.isEmpty { try readAndDispatch() }
        }
        return true
    }

    /// wl_display.sync: true once the compositor has handled every request sent before it and
    /// sent what they caused, within `seconds`.
    func roundtrip(seconds: Double) throws(DisplayError) -> Bool {
        guard let display else { return false }
        let answer = SyncAnswer()
        let callback = wl_display_sync(display)
        wl_callback_add_listener(callback, &SyncAnswer.listener, Unmanaged.passUnretained(answer).toOpaque())
        let answered = try wait(seconds: seconds) { answer.done }
        wl_callback_destroy(callback)
        return answered
    }

    /// The connection's error: a protocol error names the interface and code; anything else
    /// means the compositor went away.
    private func failure() -> DisplayError {
        guard let display else { return DisplayError("wayland: not connected", displayServerGone: true) }
        let code = wl_display_get_error(display)
        var interface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        if SystemCalls.isProtocolError(code) {
            let error = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "?"
            return DisplayError("wayland: \(compositorName) ended the connection: protocol error \(error) on \(name)@\(id)",
                                displayServerGone: true)
        }
        return DisplayError("wayland: the compositor \(compositorName) went away (\(SystemCalls.errorText(code)))",
                            displayServerGone: true)
    }
}

/// Set by a wl_display.sync callback.
private final class SyncAnswer {
    var done = false

    nonisolated(unsafe) static var listener = wl_callback_listener(done: { data, _, _ in
        guard let data else { return }
        Unmanaged<SyncAnswer>.fromOpaque(data).takeUnretainedValue().done = true
    })
}
