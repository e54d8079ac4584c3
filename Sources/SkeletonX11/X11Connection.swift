import CXCB
import Glibc
import SkeletonDisplay
import SkeletonLayout
import SkeletonSystem

/// The connection to the X server (xcb): its first screen's root window and format, events read
/// only when poll(2) says the socket is readable, and a round trip that paces frames (one put in
/// flight at a time).
final class X11Connection {
    private(set) var connection: OpaquePointer?
    /// The display's name (":0").
    let displayName: String
    /// The server's program, from the socket's peer (/proc/PID/comm), with its PID, else its vendor.
    let serverName: String
    let root: xcb_window_t
    let rootVisual: xcb_visualid_t
    let depth: UInt8
    /// The root window's size when the connection was made.
    let screenSize: Size
    /// Bytes one request may carry (BIG-REQUESTS where the server has it).
    let maximumRequestBytes: Int
    /// The sequence number of the round trip sent after the last frame, until its reply.
    private var pendingSync: UInt32?

    /// xcb_connect(3): `display` is ":N" (or a path); nil takes DISPLAY. The screen must be
    /// TrueColor with 32 bits per pixel in the host's order (XRGB8888), as every X server on
    /// Linux has by default.
    init(display: String?) throws(DisplayError) {
        let name = display ?? SystemCalls.environment("DISPLAY") ?? ":0"
        displayName = name
        var screenNumber: Int32 = 0
        let c = xcb_connect(name, &screenNumber)
        if let c, xcb_connection_has_error(c) != 0 {
            let code = xcb_connection_has_error(c)
            xcb_disconnect(c)
            throw DisplayError("x11: no X server answers at \(name) (\(Self.connectionError(code)))")
        }
        guard let c, let setup = xcb_get_setup(c) else { throw DisplayError("x11: no X server answers at \(name)") }
        var screens = xcb_setup_roots_iterator(setup)
        for _ in 0..<max(0, Int(screenNumber)) where screens.rem > 0 { xcb_screen_next(&screens) }
        guard screens.rem > 0, let screenPointer = screens.data else {
            xcb_disconnect(c)
            throw DisplayError("x11: \(name) has no screen \(screenNumber)")
        }
        let screen = screenPointer.pointee
        root = screen.root
        rootVisual = screen.root_visual
        depth = screen.root_depth
        screenSize = Size(width: Int(screen.width_in_pixels), height: Int(screen.height_in_pixels))
        if let problem = Self.formatProblem(setup: setup, screen: screenPointer) {
            xcb_disconnect(c)
            throw DisplayError("x11: \(name): \(problem)")
        }
        maximumRequestBytes = Int(xcb_get_maximum_request_length(c)) * 4
        connection = c
        let vendor = String(decoding: UnsafeRawBufferPointer(start: xcb_setup_vendor(setup), count: Int(xcb_setup_vendor_length(setup))), as: UTF8.self)
        let fd = FileDescriptor(rawValue: xcb_get_file_descriptor(c))
        let pid = (try? SystemCalls.peerCredentials(fd))?.pid ?? 0
        let program = pid > 0 ? SystemCalls.readFile("/proc/\(pid)/comm", limit: 64).map { String(decoding: $0, as: UTF8.self) } : nil
        serverName = program?.split(separator: "\n").first.map { "\($0) (pid \(pid))" } ?? vendor
    }

    deinit { disconnect() }

    /// xcb_disconnect(3), once: the server destroys what the connection made.
    func disconnect() {
        if let connection { xcb_disconnect(connection) }
        connection = nil
    }

    var descriptor: FileDescriptor? { connection.map { FileDescriptor(rawValue: xcb_get_file_descriptor($0)) } }

    /// The depth and format the pixels are put in: depth 24 (or 32) TrueColor, 32 bits per pixel,
    /// least significant byte first, red 0xFF0000, green 0xFF00, blue 0xFF. nil when it is so.
    /// `screen` points into the setup: its depths and visuals follow it there.
    private static func formatProblem(setup: UnsafePointer<xcb_setup_t>, screen screenPointer: UnsafeMutablePointer<xcb_screen_t>) -> String? {
        let screen = screenPointer.pointee
        guard setup.pointee.image_byte_order == UInt8(XCB_IMAGE_ORDER_LSB_FIRST.rawValue) else {
            return "the server wants images most significant byte first; the skeleton draws XRGB8888 in the host's order"
        }
        var formats = xcb_setup_pixmap_formats_iterator(setup)
        var bitsPerPixel: UInt8?
        while formats.rem > 0 {
            if let f = formats.data?.pointee, f.depth == screen.root_depth { bitsPerPixel = f.bits_per_pixel }
            xcb_format_next(&formats)
        }
        guard bitsPerPixel == 32 else {
            return "its screen's depth \(screen.root_depth) has \(bitsPerPixel.map { "\($0)" } ?? "no") bits per pixel; the skeleton needs 32 (XRGB8888)"
        }
        var depths = xcb_screen_allowed_depths_iterator(screenPointer)
        while depths.rem > 0 {
            if let d = depths.data {
                var visuals = xcb_depth_visuals_iterator(d)
                while visuals.rem > 0 {
                    if let v = visuals.data?.pointee, v.visual_id == screen.root_visual {
                        let trueColor = v._class == UInt8(XCB_VISUAL_CLASS_TRUE_COLOR.rawValue)
                        guard trueColor, v.red_mask == 0xFF_0000, v.green_mask == 0xFF00, v.blue_mask == 0xFF else {
                            return "its root visual is not TrueColor with 8 bits per channel (red 0xFF0000, green 0xFF00, blue 0xFF)"
                        }
                        return nil
                    }
                    xcb_visualtype_next(&visuals)
                }
            }
            xcb_depth_next(&depths)
        }
        return "its root visual is not among its screen's visuals"
    }

    /// The next event already read or readable now (xcb_poll_for_event); nil when there is none.
    /// The caller frees it.
    func nextEvent() -> UnsafeMutablePointer<xcb_generic_event_t>? {
        connection.flatMap { xcb_poll_for_event($0) }
    }

    /// The next event already read (xcb_poll_for_queued_event), reading nothing.
    func nextQueuedEvent() -> UnsafeMutablePointer<xcb_generic_event_t>? {
        connection.flatMap { xcb_poll_for_queued_event($0) }
    }

    /// Sends what is queued (xcb_flush); the server gone is an error that says so.
    func flush() throws(DisplayError) {
        guard let connection else { return }
        if xcb_flush(connection) <= 0 || xcb_connection_has_error(connection) != 0 { throw failure() }
    }

    /// Whether the connection broke (the server went away), as an error; nil while it holds.
    func check() -> DisplayError? {
        guard let connection else { return DisplayError("x11: not connected", displayServerGone: true) }
        return xcb_connection_has_error(connection) != 0 ? failure() : nil
    }

    /// A round trip after a frame: the server has handled the frame's requests once it answers.
    func sendSync() {
        guard let connection else { return }
        pendingSync = xcb_get_input_focus(connection).sequence
    }

    var syncPending: Bool { pendingSync != nil }

    /// Takes the round trip's answer if it came (xcb_poll_for_reply): frames may follow again.
    func takeSyncAnswer() {
        guard let connection, let sequence = pendingSync else { return }
        var reply: UnsafeMutableRawPointer?
        var error: UnsafeMutablePointer<xcb_generic_error_t>?
        if xcb_poll_for_reply(connection, sequence, &reply, &error) != 0 {
            free(reply)
            free(error)
            pendingSync = nil
        }
    }

    /// Forgets a round trip in flight (its answer no longer paces anything).
    func dropSync() { pendingSync = nil }

    /// Waits for the server's verdict on a request sent checked: nil, or the X error's code.
    func errorCode(of cookie: xcb_void_cookie_t) -> UInt8? {
        guard let connection, let error = xcb_request_check(connection, cookie) else { return nil }
        defer { free(error) }
        return error.pointee.error_code
    }

    private func failure() -> DisplayError {
        let code = connection.map { xcb_connection_has_error($0) } ?? 1
        return DisplayError("x11: the X server \(serverName) at \(displayName) went away (\(Self.connectionError(code)))",
                            displayServerGone: true)
    }

    /// xcb_connection_has_error's codes in words.
    static func connectionError(_ code: Int32) -> String {
        switch code {
        case XCB_CONN_ERROR: "the socket or the stream failed"
        case XCB_CONN_CLOSED_EXT_NOTSUPPORTED: "an extension it needs is missing"
        case XCB_CONN_CLOSED_MEM_INSUFFICIENT: "out of memory"
        case XCB_CONN_CLOSED_REQ_LEN_EXCEED: "a request longer than the server takes"
        case XCB_CONN_CLOSED_PARSE_ERR: "the display's name could not be read"
        case XCB_CONN_CLOSED_INVALID_SCREEN: "no such screen"
        case XCB_CONN_CLOSED_FDPASSING_FAILED: "passing a descriptor failed"
        default: "error \(code)"
        }
    }
}
