import SkeletonSystem

/// The foreground text console, for a hide that waits until it shows something new (`hide
/// --after-console`), and for the hand-back to it: its screen (`/dev/vcs`, one byte a cell) and
/// its mode (`/dev/tty0`).
struct TextConsole {
    var screenPath = "/dev/vcs"
    var terminalPath = "/dev/tty0"

    /// For a hide that would wait for it: the console's cells now, or why not to wait (for the
    /// journal): in graphics mode a getty's start (`TTYReset=`) would switch it to text, and the
    /// framebuffer console would force its own mode over the skeleton.
    var cellsToWaitOn: Result<[UInt8], ConsoleWait.Unwaitable> {
        if isGraphics { return .failure(ConsoleWait.Unwaitable("it is in graphics mode")) }
        guard let cells else { return .failure(ConsoleWait.Unwaitable("\(screenPath) cannot be read")) }
        return .success(cells)
    }

    /// Its screen, one byte a cell; nil when it cannot be read.
    var cells: [UInt8]? { SystemCalls.readConsoleScreen(screenPath) }

    /// As the card is let go to the console (`dropMaster`): KDSETMODE KD_GRAPHICS then KD_TEXT, as
    /// Xorg does on its way out, which makes the framebuffer console set its mode and redraw its
    /// text. Without it, where the daemon took the card before the console's first mode set,
    /// nothing would set the console's mode until something switches the console: seconds of
    /// black at first boot, until the getty starts. KD_GRAPHICS comes while the daemon is still
    /// DRM master, so the console's blank on entering it turns nothing off; KD_TEXT once master
    /// is dropped. Only the drop when the console is in graphics mode (a display server's) or
    /// cannot be opened.
    func redraw(around dropMaster: () -> Void) {
        guard let fd = try? SystemCalls.openConsole(terminalPath) else { return dropMaster() }
        defer { fd.close() }
        guard SystemCalls.consoleIsGraphics(fd) == false else { return dropMaster() }
        try? SystemCalls.setConsoleGraphics(fd, true)
        dropMaster()
        try? SystemCalls.setConsoleGraphics(fd, false)
    }

    /// KDGETMODE says graphics; false when it cannot be asked.
    private var isGraphics: Bool {
        guard let fd = try? SystemCalls.openConsole(terminalPath) else { return false }
        defer { fd.close() }
        return SystemCalls.consoleIsGraphics(fd) == true
    }
}
