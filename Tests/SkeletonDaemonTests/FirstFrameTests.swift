import Foundation
@testable import SkeletonDaemon
import SkeletonLog
import SkeletonSettings
import SkeletonSystem
import Testing

/// The log's first-frame line tells a slow start's waiting from its work: the time since the
/// process started and the CPU time it took, which a busy boot's other programs do not add to.
struct FirstFrameTests {
    /// Starts a daemon with a still layout on a recording display, on this thread; `check` gets
    /// the display and the log's lines while it runs.
    private func startDaemon(_ check: (RecordingProvider, [String]) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("first-frame-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
        try DaemonProcessTests.staticLayout.write(toFile: directory + "/layouts/still.json", atomically: true, encoding: .utf8)
        try "{}".write(toFile: directory + "/settings.json", atomically: true, encoding: .utf8)
        var flags = RunFlags()
        flags.config = directory + "/settings.json"
        flags.socket = directory + "/control.sock"
        flags.layouts = directory + "/layouts"
        flags.layout = "still"
        flags.frameCache = "none"
        guard case .success(let settings) = flags.settingsSource.load() else { throw CancellationError() }
        let provider = RecordingProvider()
        let lines = LogLines()
        let daemon = Daemon(settingsSource: flags.settingsSource, settings: settings, logger: Logger(level: .debug) { lines.add($0) },
                            provider: provider)
        defer { daemon.shutdown() }
        try daemon.start()
        try check(provider, lines.all)
    }

    @Test func theFirstFrameLineGivesTheProcessAgeAndItsCPUTime() throws {
        let cpuBefore = SystemCalls.processCPUSeconds()
        try startDaemon { provider, lines in
            #expect(provider.display.output.calls == ["present"], "the first frame is up")
            let line = try #require(lines.first { $0.contains("first frame on") })
            let figures = try #require(line.firstMatch(of: /\((\d+) ms after process start, (\d+) ms of CPU\)/), "\(line)")
            // The whole test process's CPU time: at least what it had used before the daemon started.
            let cpu = try #require(Double(figures.2))
            #expect(cpu >= (cpuBefore * 1000).rounded(.down) && cpu <= (SystemCalls.processCPUSeconds() * 1000).rounded(.up), "\(line)")
        }
    }
}
