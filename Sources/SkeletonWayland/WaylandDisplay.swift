import CSkeletonWayland
import SkeletonDisplay
import SkeletonLayout
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

    /// Seconds the compositor has to answer at start (its globals, the window's first configure).
    static let answerSeconds = 5.0

    /// Connects, binds the globals, asks for a fullscreen window and waits for its configure.
    /// `fallbackSize`: the window's size when the compositor leaves it to the client.
    public static func open(socket: String?, fallbackSize: Size) throws(DisplayError) -> WaylandDisplay {
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
        let display = WaylandDisplay(connection: connection, globals: globals, window: window)
        display.output = display.makeOutput()
        return display
    }

    private init(connection: WaylandConnection, globals: WaylandGlobals, window: WaylandWindow) {
        self.connection = connection
        self.globals = globals
        self.window = window
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
        followConfigure()
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
        // Errors show again when the socket reads as closed.
        try? connection.flush()
        return nil
    }

    public func release(retainingPicture: Bool) {
        guard !released else { return }
        released = true
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

    public func close() {
        output?.destroyBuffers()
        output = nil
        window.destroy()
        globals.destroy()
        connection.disconnect()
    }
}
