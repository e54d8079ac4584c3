import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonSystem
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// Opens memory displays and keeps the last one, so a test can look at its pixels; with
/// `heads`, a display of outputs by those names instead.
final class MemoryCapturingProvider: DisplayProvider {
    private(set) var display: MemoryDisplay?
    private(set) var headsDisplay: HeadsDisplay?
    var heads: [String]?

    func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? {
        if let heads {
            let d = HeadsDisplay(names: heads, size: settings.memorySize)
            headsDisplay = d
            return d
        }
        let d = MemoryDisplay(size: settings.memorySize)
        display = d
        return d
    }

    var watchDescriptor: FileDescriptor? { nil }
    func drainWatch() {}
}

/// A daemon in this process on a manual clock: each `step` moves the clock and runs loop turns
/// that never sleep; clients talk to it over its real socket.
final class SteppedDaemon {
    let directory: String
    let clock = ManualClock(now: 100)
    let provider = MemoryCapturingProvider()
    let daemon: Daemon
    let lines = LogLines()
    let events = SteppedEventSource()

    /// `sharing`: a daemon that ran before in the same directory, with the same socket path
    /// (it is shut down first), as a restart. `initramfs`: as the daemon started in the initramfs.
    init(layouts: [String: String], start: String?, size: Size = Size(width: 200, height: 100), sharing earlier: SteppedDaemon? = nil,
         heads: [String]? = nil, settings settingsText: String = "{}", initramfs: Bool = false) throws {
        provider.heads = heads
        if let earlier {
            earlier.shutdown()
            earlier.ownsDirectory = false
            directory = earlier.directory
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("stepped-\(UUID().uuidString.prefix(8))").path
        }
        try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
        for (name, text) in layouts {
            try text.write(toFile: directory + "/layouts/\(name).json", atomically: true, encoding: .utf8)
        }
        try settingsText.write(toFile: directory + "/settings.json", atomically: true, encoding: .utf8)
        var flags = RunFlags()
        flags.config = directory + "/settings.json"
        flags.socket = directory + "/control.sock"
        flags.layouts = directory + "/layouts"
        flags.layout = start ?? "none"
        flags.frameCache = "none"
        flags.backend = .memory
        flags.size = size
        guard case .success(let settings) = flags.settingsSource.load() else { throw HarnessError("settings") }
        let lines = self.lines
        daemon = Daemon(settingsSource: flags.settingsSource, settings: settings, logger: Logger(level: .debug) { lines.add($0) },
                        clock: clock, provider: provider, events: events, initramfs: initramfs)
        try daemon.start()
        daemon.turn()
        step(to: clock.now)
    }

    private var ownsDirectory = true
    private var isShutDown = false

    deinit {
        if !isShutDown { daemon.shutdown() }
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func shutdown() {
        isShutDown = true
        daemon.shutdown()
    }

    var socketPath: String { directory + "/control.sock" }
    var screen: PixelBuffer { provider.display!.buffer }

    /// The picture on the output named `name` (a daemon made with `heads`).
    func screen(of name: String) -> PixelBuffer? { provider.headsDisplay?.heads.first { $0.name == name }?.buffer }

    /// Moves the clock to `time`, running a loop turn wherever the real loop would wake on the
    /// way (its deadlines, a ready descriptor) and nowhere else.
    func step(to time: Double) {
        for _ in 0..<100_000 {
            if events.wakes(at: clock.now) {
                daemon.turn()
            } else if let deadline = events.deadline, deadline <= time, deadline > clock.now {
                clock.set(deadline)
            } else {
                break
            }
        }
        if time > clock.now { clock.set(time) }
    }

    func connect() throws -> TestClient { try TestClient(path: socketPath) }

    /// Sends a request and turns the loop (the clock standing still) until its reply arrives.
    func request(_ client: TestClient, _ json: String, maxTurns: Int = 50) -> JSONValue? {
        client.send(json + "\n")
        return reply(client, maxTurns: maxTurns)
    }

    func reply(_ client: TestClient, maxTurns: Int = 50) -> JSONValue? {
        for _ in 0..<maxTurns {
            if let r = client.readReply(seconds: 0) { return r }
            guard events.wakes(at: clock.now) else { return nil }
            daemon.turn()
        }
        return client.readReply(seconds: 0)
    }

    /// What `skeletond render` draws for a layout file of this daemon at the output size.
    func render(_ name: String, overrides: PresentationOverrides = PresentationOverrides(), at time: Double = 0, size: Size? = nil) throws -> PixelBuffer {
        guard case .success(let layout) = LayoutLoader.load(path: directory + "/layouts/\(name).json") else { throw HarnessError("layout \(name)") }
        let size = size ?? screen.size
        let renderer = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let image = PixelBuffer(size: size)
        renderer.renderFull(at: time, into: image.canvas)
        return image
    }

    func logContains(_ text: String) -> Bool { lines.all.contains { $0.contains(text) } }
}
