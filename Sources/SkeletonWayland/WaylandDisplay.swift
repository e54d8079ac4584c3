import CSkeletonWayland
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The Wayland backend: the skeleton as a fullscreen xdg-shell window of a compositor, with
/// one output, the window at its current buffer size. A configure to another size or a new
/// scale replaces the output (`takeOutputChanges`); the compositor going away ends the display
/// (`DisplayError.displayServerGone`).
public final class WaylandDisplay: Display {
    public let backendName = "wayland"
    private let connection: WaylandConnection
    private let globals: WaylandGlobals
    private let window: WaylandWindow
    private var output: WaylandOutput?
    private var changes = OutputChanges()
    private var released = false
    /// Map the window again when another window takes the activation (`stayOnTop`).
    private let stayOnTop: Bool
    /// Mapped again after being covered, and not yet drawn since.
    private var raising = false
    /// The raise under way was for a window said to cover this one (said in the journal once done).
    private var raisingOverAnother = false
    /// Where the raises are said (the daemon's log).
    public var note: ((String) -> Void)?
    /// When the window was last made anew by the clock (`stayOnTop`).
    private var lastRaise: Double?
    /// weston's kiosk-shell hides a covered window under its background without a word to it
    /// (no configure, no leave): over it, the window is made anew this often, so a window mapped
    /// over the skeleton shows for at most this long.
    static let raiseInterval = 0.25

    /// Seconds the compositor has to answer at start (its globals, the window's first configure).
    static let answerSeconds = 5.0

    /// Connects, binds the globals, asks for a fullscreen window and waits for its configure.
    /// `fallbackSize`: the window's size when the compositor leaves it to the client.
    /// `stayOnTop`: when another window maps over it, the window maps again at once, over it,
    /// with the frame it showed.
    public static func open(socket: String?, fallbackSize: Size, stayOnTop: Bool = false) throws(DisplayError) -> WaylandDisplay {
        let connection = try WaylandConnection(socket: socket)
        guard let handle = connection.display else { throw DisplayError("wayland: not connected") }
        let globals = WaylandGlobals(display: handle)
        // The first roundtrip brings the globals, the second what the bound ones say (scales).
        guard try connection.roundtrip(seconds: answerSeconds), try connection.roundtrip(seconds: answerSeconds) else {
            throw DisplayError("wayland: \(connection.compositorName) did not answer within \(Int(answerSeconds)) s")
        }
        if let missing = globals.missing {
            throw DisplayError("wayland: \(connection.compositorName) offers no \(missing): the skeleton needs it for a fullscreen window")
        }
        let window = WaylandWindow(globals: globals, title: "skeletond", fallbackSize: fallbackSize)
        guard try connection.wait(seconds: answerSeconds, until: { window.configured != nil }) else {
            throw DisplayError("wayland: \(connection.compositorName) did not configure the window within \(Int(answerSeconds)) s")
        }
        let display = WaylandDisplay(connection: connection, globals: globals, window: window, stayOnTop: stayOnTop)
        display.output = display.makeOutput()
        return display
    }

    private init(connection: WaylandConnection, globals: WaylandGlobals, window: WaylandWindow, stayOnTop: Bool) {
        self.connection = connection
        self.globals = globals
        self.window = window
        self.stayOnTop = stayOnTop
        window.damagesWhole = stayOnTop
    }

    deinit { close() }

    public var compositorName: String { connection.compositorName }

    public var outputs: [any DisplayOutput] { output.map { [$0] } ?? [] }

    public var eventDescriptor: FileDescriptor? { connection.descriptor }

    public func handleEvents() throws(DisplayError) {
        try connection.readAndDispatch()
        if window.closeRequested {
            throw DisplayError("wayland: \(connection.compositorName) closed the skeleton's window", displayServerGone: true)
        }
        raiseIfCovered()
        followConfigure()
    }

    /// cage and weston's kiosk-shell put the newest window on top and activate it: losing the
    /// activation is being covered. The window is made anew, which makes it the newest, and
    /// shows its last frame again as soon as the compositor has configured it.
    private func raiseIfCovered() {
        if stayOnTop, !released, window.takeDeactivation() {
            window.map()
            try? connection.flush()
            raising = true
            raisingOverAnother = true
        }
        if raising, !released, window.configured != nil, window.bufferSize == output?.size {
            raising = false
            output?.commitAgain()
            if raisingOverAnother { note?("wayland: another window mapped over the skeleton's, which is made again over it") }
            raisingOverAnother = false
        }
    }

    /// A window configured to another buffer size or scale gets a new output, drawn whole.
    private func followConfigure() {
        guard let size = window.bufferSize, size != output?.size || window.scale != output?.scale else { return }
        if let old = output {
            old.destroyBuffers()
            changes.removed.append(old)
        }
        let new = makeOutput()
        output = new
        if let new { changes.added.append(new) }
    }

    private func makeOutput() -> WaylandOutput? {
        guard let size = window.bufferSize, let shm = globals.shm else { return nil }
        return WaylandOutput(name: "wayland", size: size, scale: window.scale, window: window, shm: shm, connection: connection)
    }

    public func takeOutputChanges() -> OutputChanges {
        defer { changes = OutputChanges() }
        return changes
    }

    public func tick(now: Double) -> Double? {
        guard stayOnTop, !released else {
            // Errors show again when the socket reads as closed.
            try? connection.flush()
            return nil
        }
        let last = lastRaise ?? now
        if now - last >= Self.raiseInterval, !raising, window.configured != nil {
            window.map()
            raising = true
            lastRaise = now
        } else if lastRaise == nil {
            lastRaise = now
        }
        try? connection.flush()
        return (lastRaise ?? now) + Self.raiseInterval
    }

    public func release(retainingPicture: Bool) {
        guard !released else { return }
        // Over the app, a frame left on screen would stay there: the app is what is retained.
        if stayOnTop { uncover() }
        released = true
        raising = false
        if !retainingPicture {
            window.unmap()
            try? connection.flush()
        }
    }

    public func reacquire() throws(DisplayError) {
        guard released else { return }
        if window.configured == nil {
            window.map()
            guard try connection.wait(seconds: Self.answerSeconds, until: { window.configured != nil }) else {
                throw DisplayError("wayland: \(connection.compositorName) did not configure the window again within \(Int(Self.answerSeconds)) s")
            }
            followConfigure()
        }
        released = false
    }

    public var problem: String? { nil }

    /// Before the window goes from over the app: a transparent frame, damaged whole, drawn by the
    /// compositor. cage repaints only what its windows damage, and an app that has not drawn
    /// since it was covered damages nothing: without this the skeleton's last frame would stay
    /// on screen over it.
    private func uncover() {
        guard let output, let shm = globals.shm, let clear = try? ShmBuffer(shm: shm, size: output.size, transparent: true) else { return }
        defer { clear.destroy() }
        // Made anew a moment ago (a raise): the new window can take a frame once configured.
        if window.configured == nil { _ = try? connection.wait(seconds: 0.5) { window.configured != nil } }
        if window.framePending { _ = try? connection.wait(seconds: 0.1) { !window.framePending } }
        window.commit(clear, damage: [PixelRect(x: 0, y: 0, width: output.size.width, height: output.size.height)], scale: output.scale)
        _ = try? connection.wait(seconds: 0.2) { !window.framePending }
    }

    public func close() {
        if stayOnTop && !released { uncover() }
        output?.destroyBuffers()
        output = nil
        window.destroy()
        globals.destroy()
        connection.disconnect()
    }
}
