import SkeletonSystem

/// The foreground text console, for a hide that waits until it shows something (`hide
/// --after-console`): its screen (`/dev/vcs`, one byte a cell) and its mode (`/dev/tty0`).
struct TextConsole {
    var screenPath = "/dev/vcs"
    var terminalPath = "/dev/tty0"

    /// What the console is like for a hide that would wait for it.
    enum Look: Equatable {
        /// Blank, in text mode: worth waiting for.
        case blank
        case showsText
        /// In graphics mode: a getty's start (`TTYReset=`) would switch it to text, and the
        /// framebuffer console would force its own mode over the skeleton.
        case graphics
        case unreadable(String)

        /// Why a hide does not wait, for the journal; nil when it does.
        var reasonNotToWait: String? {
            switch self {
            case .blank: nil
            case .showsText: "it shows text already"
            case .graphics: "it is in graphics mode"
            case .unreadable(let path): "\(path) cannot be read"
            }
        }
    }

    var look: Look {
        if isGraphics { return .graphics }
        guard let text = screenHoldsText else { return .unreadable(screenPath) }
        return text ? .showsText : .blank
    }

    /// Whether its screen holds anything but blanks; true when it cannot be read (nothing to
    /// wait for then).
    var showsText: Bool { screenHoldsText ?? true }

    /// Anything but blanks (spaces, NULs) on the screen; nil when it cannot be read.
    private var screenHoldsText: Bool? {
        SystemCalls.readConsoleScreen(screenPath).map { cells in cells.contains { $0 != 0x20 && $0 != 0 } }
    }

    /// Once the card is let go to the console: KDSETMODE KD_GRAPHICS then KD_TEXT, as Xorg does on
    /// its way out, which makes the framebuffer console set its mode and redraw its text. Without
    /// it, where the daemon took the card before the console's first mode set, nothing would set
    /// the console's mode until something switches the console: seconds of black at first boot,
    /// until the getty starts. Nothing when the console is in graphics mode (a display server's)
    /// or cannot be opened.
    func redraw() {
        guard let fd = try? SystemCalls.openConsole(terminalPath) else { return }
        defer { fd.close() }
        guard SystemCalls.consoleIsGraphics(fd) == false else { return }
        try? SystemCalls.setConsoleGraphics(fd, true)
        try? SystemCalls.setConsoleGraphics(fd, false)
    }

    /// KDGETMODE says graphics; false when it cannot be asked.
    private var isGraphics: Bool {
        guard let fd = try? SystemCalls.openConsole(terminalPath) else { return false }
        defer { fd.close() }
        return SystemCalls.consoleIsGraphics(fd) == true
    }
}
