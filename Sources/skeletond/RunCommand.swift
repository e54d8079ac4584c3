import ArgumentParser
import SkeletonCLI
import SkeletonDaemon
import SkeletonSettings
import SkeletonLayout

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: open the display, serve the control socket, animate."
    )

    @OptionGroup var start: StartOptions

    @Option(help: "Control socket path.")
    var socket: String?

    @Option(help: "Display backend: auto, drm, fbdev, memory or wayland (a fullscreen window of the compositor at WAYLAND_DISPLAY).")
    var backend: Backend?

    @Option(help: "A DRM card (/dev/dri/cardN) or a framebuffer (/dev/fbN); default: the first card with a connected output, else /dev/fb0.")
    var device: String?

    @Option(help: "Memory output size WxH.")
    var size: Size?

    @Option(help: "Memory output: a PNG rewritten when the picture changes (at most 4 times a second).")
    var snapshot: String?

    @Option(name: .customLong("display-wait"), help: "Seconds to wait for a display to appear before drawing into memory (auto) or giving up waiting (drm).")
    var displayWait: Double?

    @Option(name: .customLong("max-fps"), help: "Frame-rate cap.")
    var maxFPS: Int?

    @Option(help: "Turn the picture on every output clockwise by 0, 90, 180 or 270 degrees (default: each panel's orientation).")
    var rotation: Int?

    @Option(name: .customLong("log-level"), help: "error, warning, notice, info or debug.")
    var logLevel: String?

    @Option(help: "The keymap prompts read keys with: LAYOUT[:VARIANT] (de, fr:oss) or a compiled keymap's path (default: /etc/default/keyboard's).")
    var keymap: String?

    /// The flags as the daemon takes them; `Skeletond.main()` reads the same from plain
    /// arguments without this type (see `RunFlags(bootArguments:)`).
    var flags: RunFlags {
        var f = RunFlags()
        start.apply(to: &f)
        f.socket = socket
        f.backend = backend
        f.device = device
        f.size = size
        f.snapshot = snapshot
        f.displayWait = displayWait
        f.maxFPS = maxFPS
        f.rotation = rotation
        f.logLevel = logLevel.flatMap(LogLevel.init(name:))
        f.keymap = keymap
        return f
    }

    func validate() throws {
        if let problem = flags.problem { throw ValidationError(problem) }
        if let logLevel, LogLevel(name: logLevel) == nil {
            throw ValidationError("--log-level must be error, warning, notice, info or debug")
        }
    }

    func run() throws {
        let status = Daemon.main(flags: flags, provider: makeDisplayProvider())
        if status != 0 { throw ExitCode(status) }
    }
}

extension Backend: ExpressibleByArgument {}
