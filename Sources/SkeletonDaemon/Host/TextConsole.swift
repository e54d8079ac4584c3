import SkeletonSystem

/// The foreground text console, for a hide that waits until it shows something (`hide
/// --after-console`): its screen (`/dev/vcs`, one byte a cell) and its mode (`/dev/tty0`).
struct TextConsole {
    var screenPath = "/dev/vcs"
    var terminalPath = "/dev/tty0"

    /// Whether its screen holds anything but blanks; true when it cannot be read (nothing to
    /// wait for then).
    var showsText: Bool {
        guard let cells = SystemCalls.readConsoleScreen(screenPath) else { return true }
        return cells.contains { $0 != 0x20 && $0 != 0 }
    }

    /// In graphics mode (KDGETMODE): a getty's start (`TTYReset=`) would switch it to text, and
    /// the framebuffer console would force its own mode over the skeleton. A hide waits for
    /// nothing then. False when it cannot be asked.
    var isGraphics: Bool {
        guard let fd = try? SystemCalls.openConsole(terminalPath) else { return false }
        defer { fd.close() }
        return SystemCalls.consoleIsGraphics(fd) == true
    }

    /// A hide should wait for it: in text mode, and blank.
    var worthWaitingFor: Bool { !isGraphics && !showsText }
}
