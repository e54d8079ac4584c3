import SkeletonSystem

/// Keeps the text console from drawing over a framebuffer: KDSETMODE KD_GRAPHICS on the active
/// virtual terminal and fbcon's cursor blink off while the skeleton shows, both put back as
/// they were on `restore`. DRM needs none of this: its mode set takes the screen from fbcon.
public final class ConsoleQuieter {
    private let consolePath: String
    private let cursorBlinkPath: String
    private var console: FileDescriptor?
    private var consoleWasText = false
    private var savedBlink: [UInt8]?
    public private(set) var isQuiet = false

    /// `consolePath`: the active terminal (`/dev/tty0` follows the foreground one).
    public init(consolePath: String = "/dev/tty0", cursorBlinkPath: String = "/sys/class/graphics/fbcon/cursor_blink") {
        self.consolePath = consolePath
        self.cursorBlinkPath = cursorBlinkPath
    }

    deinit { console?.close() }

    /// Puts the console in graphics mode and stops the cursor; what cannot be done (no console,
    /// no fbcon) is returned as a note for the log, never an error: the picture still shows.
    @discardableResult
    public func quiet() -> String? {
        guard !isQuiet else { return nil }
        isQuiet = true
        var notes: [String] = []
        if let blink = SystemCalls.readFile(cursorBlinkPath, limit: 16), (try? SystemCalls.writeFile(cursorBlinkPath, Array("0".utf8))) != nil {
            savedBlink = blink
        }
        if console == nil { console = try? SystemCalls.openDevice(consolePath) }
        guard let console else { return "\(consolePath): cannot open it; the text console may draw over the skeleton" }
        consoleWasText = SystemCalls.consoleIsGraphics(console) == false
        if consoleWasText {
            do { try SystemCalls.setConsoleGraphics(console, true) } catch {
                notes.append("\(consolePath): \(error)")
                consoleWasText = false
            }
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// Gives the screen back to the text console (it redraws its text) and the cursor blink.
    public func restore() {
        guard isQuiet else { return }
        isQuiet = false
        if let console, consoleWasText { try? SystemCalls.setConsoleGraphics(console, false) }
        if let savedBlink { try? SystemCalls.writeFile(cursorBlinkPath, savedBlink) }
        savedBlink = nil
        consoleWasText = false
    }
}
