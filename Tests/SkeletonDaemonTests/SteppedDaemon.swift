import Foundation
import SkeletonBackend
@testable import SkeletonDaemon
import SkeletonDisplay
import SkeletonLayout
import SkeletonLog
import SkeletonRender
@testable import SkeletonSettings
import SkeletonSystem

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
        let d = MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath)
        display = d
        return d
    }

    var watchDescriptor: FileDescriptor? { nil }
    func drainWatch() {}
}

/// A daemon in this process on a manual clock: each `step` moves the clock and runs the loop
/// turns the real loop would run on the way. With `.memory` (the default) it touches no file
/// system: its settings and layouts are files in memory and its control connections a
/// `MemoryTransport`; with `.disk` they are files in a temporary directory and a real socket,
/// for what is about files and sockets themselves (marks, restarts, the frame cache).
final class SteppedDaemon {
    enum Storage { case memory, disk }

    let storage: Storage
    let directory: String
    let layoutTexts: [String: String]
    let clock = ManualClock(now: 100)
    let provider = MemoryCapturingProvider()
    let daemon: Daemon
    let lines = LogLines()
    let events: SteppedEventSource
    let transport: MemoryTransport?
    /// Pictures, texts and snapshots: made at once, or held until the test lets them go.
    let work = SteppedWork()

    /// `sharing`: a daemon that ran before in the same directory, with the same socket path
    /// (it is shut down first), as a restart. `initramfs`: as the daemon started in the initramfs.
    /// `holdingWork`: pictures and texts wait until the test releases `work`. `drmCard`: the DRM
    /// backend on the card at that path (a `FakeDRMDevice`), through the real provider.
    /// `terminals`: VTs in memory whose switches the test delivers (`events.deliver`). `console`:
    /// the text console a hide may wait for (files standing for /dev/vcs and /dev/tty0).
    init(layouts: [String: String], start: String?, size: Size = Size(width: 200, height: 100), sharing earlier: SteppedDaemon? = nil,
         heads: [String]? = nil, settings settingsText: String = "{}", initramfs: Bool = false, storage: Storage = .memory,
         holdingWork: Bool = false, drmCard: String? = nil, terminals: (any VirtualTerminals)? = nil, console: TextConsole? = nil) throws {
        provider.heads = heads
        work.holding = holdingWork
        self.storage = earlier?.storage ?? storage
        layoutTexts = layouts
        if let earlier {
            earlier.shutdown()
            earlier.ownsDirectory = false
            directory = earlier.directory
        } else {
            let base = self.storage == .disk ? FileManager.default.temporaryDirectory.path : "/memory"
            directory = base + "/stepped-\(UUID().uuidString.prefix(8))"
        }
        var files = ConfigFiles.system
        if self.storage == .disk {
            try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
            for (name, text) in layouts {
                try text.write(toFile: directory + "/layouts/\(name).json", atomically: true, encoding: .utf8)
            }
            try settingsText.write(toFile: directory + "/settings.json", atomically: true, encoding: .utf8)
            transport = nil
        } else {
            var contents = [directory + "/settings.json": Array(settingsText.utf8)]
            for (name, text) in layouts { contents[directory + "/layouts/\(name).json"] = Array(text.utf8) }
            files = .memory(contents)
            transport = MemoryTransport()
        }
        events = SteppedEventSource(memory: transport, work: work)
        var flags = RunFlags()
        flags.config = directory + "/settings.json"
        flags.socket = directory + "/control.sock"
        flags.layouts = directory + "/layouts"
        flags.layout = start ?? "none"
        flags.frameCache = "none"
        flags.backend = drmCard == nil ? .memory : .auto
        flags.device = drmCard
        flags.size = size
        var source = flags.settingsSource
        source.files = files
        guard case .success(var settings) = source.load() else { throw HarnessError("settings") }
        // Not systemd's real ask-password directory nor this machine's keyboards, unless a
        // test says where.
        if !settingsText.contains("\"prompts\"") {
            settings.prompts.agentDirectory = nil
            settings.prompts.inputDirectory = directory + "/no-input"
        }
        let lines = self.lines, clock = self.clock
        daemon = Daemon(settingsSource: source, settings: settings, logger: Logger(level: .debug, sink: { lines.add($0) }, clock: { clock.now }),
                        clock: clock, provider: drmCard == nil ? provider : DRMDisplayProvider(), events: events, transport: transport, initramfs: initramfs, work: work)
        daemon.host.vtSwitch = terminals.map(VTSwitch.init)
        // Not this machine's console, unless a test gives one.
        daemon.host.console = console ?? TextConsole(screenPath: directory + "/no-vcs", terminalPath: directory + "/no-tty")
        try daemon.start()
        daemon.turn()
        step(to: clock.now)
    }

    private var ownsDirectory = true
    private var isShutDown = false

    deinit {
        if !isShutDown { daemon.shutdown() }
        if ownsDirectory && storage == .disk { try? FileManager.default.removeItem(atPath: directory) }
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

    func connect() throws -> any SteppedClient {
        if let transport { return MemoryClient(transport.connect()) }
        return try TestClient(path: socketPath)
    }

    /// Sends a request and turns the loop (the clock standing still) until its reply arrives.
    func request(_ client: any SteppedClient, _ json: String, maxTurns: Int = 50) -> JSONValue? {
        client.send(json + "\n")
        return reply(client, maxTurns: maxTurns)
    }

    func reply(_ client: any SteppedClient, maxTurns: Int = 50) -> JSONValue? {
        for _ in 0..<maxTurns {
            if let r = client.readReply(seconds: 0) { return r }
            guard events.wakes(at: clock.now) else { return nil }
            daemon.turn()
        }
        return client.readReply(seconds: 0)
    }

    /// What `skeletond render` draws for a layout file of this daemon at the output size.
    func render(_ name: String, overrides: PresentationOverrides = PresentationOverrides(), at time: Double = 0, size: Size? = nil) throws -> PixelBuffer {
        let layout = try self.layout(name)
        let size = size ?? screen.size
        let renderer = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let image = PixelBuffer(size: size)
        renderer.renderFull(at: time, into: image.canvas)
        return image
    }

    /// A layout of this daemon, as the daemon reads it.
    func layout(_ name: String) throws -> Layout {
        guard let text = layoutTexts[name],
              case .success(let layout) = LayoutLoader.load(text: Array(text.utf8), file: directory + "/layouts/\(name).json") else {
            throw HarnessError("layout \(name)")
        }
        return layout
    }

    func logContains(_ text: String) -> Bool { lines.all.contains { $0.contains(text) } }
}
