import CXCB
import Glibc
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The X11 backend: the skeleton as a window over the whole screen of an X server (an Xorg
/// started with `-background none` for a kiosk), one output at the root window's size. The
/// screen changing size (RandR) replaces the output; the server going away ends the display
/// (`DisplayError.displayServerGone`).
public final class X11Display: Display {
    public let backendName = "x11"
    let connection: X11Connection
    private let window: X11Window
    private var output: X11Output
    private var changes = OutputChanges()
    private var released = false
    /// Where the window's stacking is said (the daemon's log).
    public var note: ((String) -> Void)?
    /// The first window put under the skeleton's is said; later ones are counted.
    private var coveringsSaid = false

    /// Connects, makes the window over the screen and maps it: the screen keeps what it showed
    /// (the window has no background) until the first frame is put.
    public static func open(display: String?, stayOnTop: Bool) throws(DisplayError) -> X11Display {
        let connection = try X11Connection(display: display)
        let window = try X11Window(connection: connection, stayOnTop: stayOnTop)
        window.map()
        try connection.flush()
        return X11Display(connection: connection, window: window)
    }

    private init(connection: X11Connection, window: X11Window) {
        self.connection = connection
        self.window = window
        output = X11Output(size: window.size, window: window, connection: connection)
    }

    deinit { close() }

    public var serverName: String { connection.serverName }

    /// Where windows that map go: under the skeleton's by the redirect, or raised over again.
    public var stackingNote: String {
        guard window.keepsOnTop else { return "other windows map over it" }
        guard window.redirects else {
            return "a window manager holds the root's redirect: the skeleton's window is raised again over windows that map"
        }
        return "no window manager runs: windows that map are made the screen's size and put under the skeleton's until it goes"
            + (window.composites ? "" : " (the server has no Composite 0.2: a covered app may draw nothing until then)")
    }

    public var outputs: [any DisplayOutput] { [output] }

    public var eventDescriptor: FileDescriptor? { connection.descriptor }

    public func handleEvents() throws(DisplayError) {
        while let event = connection.nextEvent() {
            handle(event)
            free(event)
        }
        connection.takeSyncAnswer()
        while let event = connection.nextQueuedEvent() {
            handle(event)
            free(event)
        }
        if let error = connection.check() { throw error }
        try connection.flush()
        let covered = window.takeCoverings()
        if covered > 0, !coveringsSaid {
            coveringsSaid = true
            note?(window.redirects ? "x11: a window mapped while the skeleton shows: put under the skeleton's window"
                                   : "x11: a window mapped over the skeleton's, which is raised over it again")
        }
    }

    private func handle(_ event: UnsafeMutablePointer<xcb_generic_event_t>) {
        let raw = UnsafeMutableRawPointer(event)
        switch Int32(event.pointee.response_type & 0x7F) {
        case XCB_EXPOSE:
            let e = raw.assumingMemoryBound(to: xcb_expose_event_t.self).pointee
            if e.window == window.id, window.mapped {
                output.expose(PixelRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)))
            }
        case XCB_MAP_REQUEST:
            window.mapRequested(raw.assumingMemoryBound(to: xcb_map_request_event_t.self).pointee.window)
        case XCB_CONFIGURE_REQUEST:
            window.configureRequested(raw.assumingMemoryBound(to: xcb_configure_request_event_t.self).pointee)
        case XCB_CIRCULATE_REQUEST:
            window.circulateRequested(raw.assumingMemoryBound(to: xcb_circulate_request_event_t.self).pointee)
        case XCB_DESTROY_NOTIFY:
            window.forget(raw.assumingMemoryBound(to: xcb_destroy_notify_event_t.self).pointee.window)
        case XCB_MAP_NOTIFY:
            let e = raw.assumingMemoryBound(to: xcb_map_notify_event_t.self).pointee
            if e.event == connection.root { window.covered(by: e.window) }
        case XCB_CONFIGURE_NOTIFY:
            let e = raw.assumingMemoryBound(to: xcb_configure_notify_event_t.self).pointee
            if e.window == connection.root {
                follow(Size(width: Int(e.width), height: Int(e.height)))
            } else if e.event == connection.root, e.above_sibling == window.id {
                window.covered(by: e.window)
            }
        default:
            break
        }
    }

    /// The screen changed size: the window follows it, with a new output drawn whole.
    private func follow(_ size: Size) {
        guard size != output.size, size.width > 0, size.height > 0 else { return }
        window.resize(to: size)
        changes.removed.append(output)
        output = X11Output(size: size, window: window, connection: connection)
        changes.added.append(output)
        connection.dropSync()
    }

    public func takeOutputChanges() -> OutputChanges {
        defer { changes = OutputChanges() }
        return changes
    }

    public func tick(now: Double) -> Double? {
        try? connection.flush()
        return nil
    }

    /// Over the app (`stayOnTop`) the window goes whatever `retainingPicture` says: the app is
    /// what is retained, and windows stack as they ask from then on. Else a retained picture
    /// stays mapped, unchanged.
    public func release(retainingPicture: Bool) {
        guard !released else { return }
        released = true
        if window.keepsOnTop || !retainingPicture { window.unmap() }
        window.stopKeepingOnTop()
        connection.dropSync()
        try? connection.flush()
    }

    public func reacquire() throws(DisplayError) {
        guard released else { return }
        released = false
        window.keepOnTopAgain()
        window.map()
        try connection.flush()
    }

    public var problem: String? { nil }

    public func close() {
        window.destroy()
        try? connection.flush()
        connection.disconnect()
    }
}
