import ArgumentParser
import SkeletonDaemon
import SkeletonLayout

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: open the display, serve the control socket, animate."
    )

    @Option(help: "Settings file (a missing default file means built-in defaults).")
    var config: String = Settings.defaultPath

    @Option(help: "Control socket path.")
    var socket: String?

    @Option(help: "Directory of layout files.")
    var layouts: String?

    @Option(help: "Layout shown at start: a name of the layouts directory or a file; \"none\" shows nothing.")
    var layout: String?

    @Option(help: "Display backend: auto, drm or memory.")
    var backend: Backend?

    @Option(help: "DRM device path (default: the first card with a connected output).")
    var device: String?

    @Option(help: "Memory output size WxH.")
    var size: Size?

    @Option(help: "Memory output: a PNG rewritten when the picture changes (at most 4 times a second).")
    var snapshot: String?

    @Option(name: .customLong("display-wait"), help: "Seconds to wait for a display to appear before drawing into memory (auto) or giving up waiting (drm).")
    var displayWait: Double?

    @Option(name: .customLong("max-fps"), help: "Frame-rate cap.")
    var maxFPS: Int?

    @Option(name: .customLong("log-level"), help: "error, warning, notice, info or debug.")
    var logLevel: String?

    func validate() throws {
        if let maxFPS, !(1...240).contains(maxFPS) { throw ValidationError("--max-fps must be from 1 to 240") }
        if let displayWait, !(0...600).contains(displayWait) { throw ValidationError("--display-wait must be from 0 to 600 seconds") }
        if let logLevel, LogLevel(name: logLevel) == nil {
            throw ValidationError("--log-level must be error, warning, notice, info or debug")
        }
    }

    func run() throws {
        let flags = self
        let source = Daemon.SettingsSource(path: config, pathIsDefault: config == Settings.defaultPath) { s in
            if let v = flags.socket { s.socketPath = v }
            if let v = flags.layouts { s.layoutsDirectory = v }
            if let v = flags.layout { s.startLayout = v == "none" ? nil : v }
            if let v = flags.backend { s.backend = v }
            if let v = flags.device { s.device = v }
            if let v = flags.size { s.memorySize = v }
            if let v = flags.snapshot { s.snapshotPath = v }
            if let v = flags.maxFPS { s.maxFPS = v }
            if let v = flags.displayWait { s.displayWaitSeconds = v }
            if let v = flags.logLevel.flatMap(LogLevel.init(name:)) { s.logLevel = v }
        }
        let logger = Logger()
        let settings: Settings
        switch source.load() {
        case .success(let s): settings = s
        case .failure(let e):
            for line in e.lines { logger.error(line) }
            throw ExitCode(1)
        }
        logger.level = settings.logLevel
        if let age = Daemon.processAgeSeconds() {
            logger.debug("start-up: arguments parsed \(Int((age * 1000).rounded())) ms after process start (10 ms resolution)")
        }
        let daemon = Daemon(settingsSource: source, settings: settings, logger: logger, provider: makeDisplayProvider())
        do {
            try daemon.start()
        } catch {
            logger.error("cannot start: \(error)")
            throw ExitCode(1)
        }
        daemon.run()
    }
}

extension Backend: ExpressibleByArgument {}
