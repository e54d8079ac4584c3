#if canImport(FoundationEssentials)
import FoundationEssentials
import SkeletonBackend
import SkeletonLog
#endif
import Foundation
import SkeletonProtocol
import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings
import SkeletonSystem
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import Testing

/// An output that records how frames reach it, as the DRM one would receive them.
final class RecordingOutput: DisplayOutput {
    let name = "REC-1"
    let size = Size(width: 64, height: 32)
    let buffer = PixelBuffer(width: 64, height: 32)
    /// What reached the "screen", in order: "whole" (past the shadow) or "present".
    var calls: [String] = []
    var screen = PixelBuffer(width: 64, height: 32)
    var shadow: Canvas { buffer.canvas }
    var canPresent: Bool { true }
    var framesPresented: Int { calls.count }
    var status: OutputStatus { OutputStatus() }

    func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        calls.append("present")
        for rect in damage { screen.canvas.copy(rect, from: shadow) }
        return true
    }

    func presentWhole(_ write: (Canvas) -> Bool) throws(DisplayError) -> Bool {
        calls.append("whole")
        return write(screen.canvas)
    }
}

final class RecordingDisplay: Display {
    let output = RecordingOutput()
    let backendName = "recording"
    var outputs: [any DisplayOutput] { [output] }
    var eventDescriptor: FileDescriptor? { nil }
    func handleEvents() throws(DisplayError) {}
    func tick(now: Double) -> Double? { nil }
    func release(retainingPicture: Bool) {}
    func reacquire() throws(DisplayError) {}
    var problem: String? { nil }
    func close() {}
}

final class RecordingProvider: DisplayProvider {
    let display = RecordingDisplay()
    func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? { display }
    var watchDescriptor: FileDescriptor? { nil }
    func drainWatch() {}
}

/// At start the cache is looked at before anything reaches the screen: a miss must not touch
/// the screen (on DRM a whole-frame present sets the mode: the screen would go black until the
/// layout is drawn); a hit goes to the screen past the shadow, before the layout is parsed.
struct FrameCacheStartTests {
    func start(in directory: String) throws -> (Daemon, RecordingOutput) {
        try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
        try DaemonProcessTests.staticLayout.write(toFile: directory + "/layouts/still.json", atomically: true, encoding: .utf8)
        var flags = RunFlags()
        flags.config = directory + "/settings.json"
        flags.socket = directory + "/control.sock"
        flags.layouts = directory + "/layouts"
        flags.layout = "still"
        flags.frameCache = directory + "/cache"
        try "{}".write(toFile: directory + "/settings.json", atomically: true, encoding: .utf8)
        guard case .success(let settings) = flags.settingsSource.load() else { throw CancellationError() }
        let provider = RecordingProvider()
        let lines = LogLines()
        let daemon = Daemon(settingsSource: flags.settingsSource, settings: settings, logger: Logger(level: .debug) { lines.add($0) },
                            provider: provider)
        try daemon.start()
        return (daemon, provider.display.output)
    }

    @Test func aMissTouchesNothingBeforeTheFrameIsDrawnAndAHitGoesStraightToTheScreen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fc-start-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (first, missed) = try start(in: directory)
        #expect(missed.calls == ["present"], "the first frame is drawn, nothing before it")
        let drawn = missed.screen.pixels
        first.shutdown()
        try FileManager.default.createDirectory(atPath: directory + "/cache", withIntermediateDirectories: true)
        let cache = try #require(FrameCache(directory: directory + "/cache"))
        let entry = PixelBuffer(width: 64, height: 32, fill: 0x00FF00)
        let path = cache.path(layoutName: "still", layoutText: Array(DaemonProcessTests.staticLayout.utf8), size: Size(width: 64, height: 32))
        try cache.store(path, from: entry.canvas)
        let (second, hit) = try start(in: directory)
        defer { second.shutdown() }
        #expect(hit.calls == ["whole"], "the entry is shown; the layout's frame comes from the loop")
        #expect(hit.screen.pixels == entry.pixels)
        #expect(drawn != entry.pixels)
    }
}
