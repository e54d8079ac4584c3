import ArgumentParser
import SkeletonDaemon
import SkeletonSettings

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: open the display, serve the control socket, animate."
    )

    @OptionGroup var start: StartOptions

    // Texts, not typed values: `RunFlags.parse` reads and checks every value, as it does for
    // the boot's plain command line.
    @Option(help: "Control socket path.")
    var socket: String?

    @Option(help: "Display backend: auto, drm, fbdev, memory, wayland (a fullscreen window of the compositor at WAYLAND_DISPLAY) or x11 (a window over the screen of the X server at DISPLAY).",
            completion: .list(Backend.allCases.map(\.rawValue)))
    var backend: String?

    @Option(help: "A DRM card (/dev/dri/cardN) or a framebuffer (/dev/fbN); default: the first card with a connected output, else /dev/fb0.")
    var device: String?

    @Option(help: "Memory output size WxH.")
    var size: String?

    @Option(help: "Memory output: a PNG rewritten when the picture changes (at most 4 times a second).")
    var snapshot: String?

    @Option(name: .customLong("display-wait"), help: "Seconds to wait for a display to appear before drawing into memory (auto) or giving up waiting (drm).")
    var displayWait: String?

    @Option(name: .customLong("max-fps"), help: "Frame-rate cap.")
    var maxFPS: String?

    @Option(help: "Turn the picture on every output clockwise by 0, 90, 180 or 270 degrees (default: each panel's orientation).")
    var rotation: String?

    @Option(name: .customLong("log-level"), help: "error, warning, notice, info or debug.")
    var logLevel: String?

    @Option(help: "The keymap prompts read keys with: LAYOUT[:VARIANT] (de, fr:oss) or a compiled keymap's path (default: /etc/default/keyboard's).")
    var keymap: String?

    /// The options given, by long name.
    private var given: [(name: String, text: String)] {
        let own = [("socket", socket), ("backend", backend), ("device", device), ("size", size), ("snapshot", snapshot),
                   ("display-wait", displayWait), ("max-fps", maxFPS), ("rotation", rotation), ("log-level", logLevel),
                   ("keymap", keymap)]
        return start.given + own.compactMap { name, text in text.map { (name, $0) } }
    }

    func validate() throws {
        if case .failure(let refusal) = RunFlags.parse(given) { throw ValidationError(refusal.description) }
    }

    func run() throws {
        let flags = try RunFlags.parse(given).get()
        let status = Daemon.main(flags: flags, provider: makeDisplayProvider())
        if status != 0 { throw ExitCode(status) }
    }
}
