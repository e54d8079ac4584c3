import SkeletonLayout
import SkeletonSystem

/// `skeletond bench-control --memory`: months of a kiosk's uptime in a minute. One client sends
/// a mix of commands back to back to a daemon on the memory output at 640x400 (updates with a new
/// message and progress value, shows of the five bundled layouts with a dissolve, hides with one,
/// deactivate and reactivate, status); the daemon's resident size, descriptors and threads after
/// the first tenth of the commands and at the end must be the same, the size within
/// `allowedGrowthKiB`.
public enum MemoryBenchmark {
    public static let allowedGrowthKiB = 1024
    static let layouts = ["default", "feed", "dashboard", "kiosk-menu", "kiosk-splash"]

    /// What /proc says of the daemon at one point.
    public struct Sample: Sendable, Equatable {
        public var residentKiB: Int
        public var descriptors: Int
        public var threads: Int
    }

    public struct Result: Sendable {
        public var lines: [String]
        public var early: Sample
        public var end: Sample
        public var errorReplies: Int

        public var growthKiB: Int { end.residentKiB - early.residentKiB }

        /// Within the allowed growth, the same descriptors and threads, every command answered ok.
        public var bounded: Bool {
            growthKiB <= MemoryBenchmark.allowedGrowthKiB && end.descriptors == early.descriptors
                && end.threads == early.threads && errorReplies == 0
        }
    }

    typealias Calls = BenchIO

    public static func run(executable: String, layoutsDirectory: String, commands: Int) throws(ToolError) -> Result {
        let directory = "/tmp/skeletond-bench-memory-\(Calls.processID)"
        Calls.makeDirectory(directory)
        let socketPath = directory + "/control.sock"
        let settingsPath = directory + "/settings.json"
        Calls.writeFile(settingsPath, "{}")
        let pid = try Calls.spawn([executable, "run", "--config", settingsPath, "--socket", socketPath, "--layouts", layoutsDirectory,
                                   "--layout", "kiosk-splash", "--backend", "memory", "--size", "640x400", "--frame-cache", "none",
                                   "--log-level", Calls.environment("SKELETOND_BENCH_LOG") ?? "warning"])
        defer {
            Calls.stop(pid)
            Calls.removeFile(settingsPath)
            Calls.removeDirectory(directory)
        }
        guard let fd = connect(socketPath) else { throw ToolError("the daemon did not start on \(socketPath)") }
        defer { Calls.close(fd) }

        let checkpoint = max(1, commands / 10)
        var early: Sample?
        var errorReplies = 0
        var firstError: String?
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let started = Calls.monotonicSeconds()
        for index in 0..<commands {
            Calls.sendAll(fd, Array((command(index) + "\n").utf8))
            var newline = pending.firstIndex(of: 0x0A)
            while newline == nil {
                let n = Calls.read(fd, into: &chunk)
                guard n > 0 else { throw ToolError("the daemon closed the connection after \(index) commands") }
                pending += chunk[0..<n]
                newline = pending.firstIndex(of: 0x0A)
            }
            let reply = pending[..<newline!]
            if (try? JSONValue.parse(reply))?["ok"]?.boolValue != true {
                errorReplies += 1
                if firstError == nil { firstError = command(index) + " -> " + String(decoding: reply, as: UTF8.self) }
            }
            pending.removeFirst(newline! + 1)
            if index + 1 == checkpoint { early = sample(pid) }
        }
        let seconds = Calls.monotonicSeconds() - started
        let end = sample(pid)
        let first = early ?? end
        var lines = ["\(commands) commands (update with a new message and progress, show of another layout with a dissolve, hide, "
                     + "deactivate, reactivate, status) in \(seconds.fixed(1)) s, \(Int(Double(commands) / seconds)) per second"]
        lines.append("after \(checkpoint): \(describe(first))")
        lines.append("after \(commands): \(describe(end))")
        if let firstError { lines.append("\(errorReplies) error replies, the first: \(firstError)") }
        var result = Result(lines: lines, early: first, end: end, errorReplies: errorReplies)
        let growth = result.growthKiB
        result.lines.append("growth: \(growth >= 0 ? "+" : "")\(growth) KiB (at most \(allowedGrowthKiB) KiB, descriptors and threads "
                            + "unchanged): " + (result.bounded ? "bounded" : "NOT bounded"))
        return result
    }

    /// The `index`th command of the mix: a cycle of eight.
    static func command(_ index: Int) -> String {
        switch index % 8 {
        case 0:
            let layout = layouts[(index / 8) % layouts.count]
            return "{\"command\":\"show\",\"layout\":\"\(layout)\",\"transition\":{\"kind\":\"crossDissolve\",\"duration\":0.05}}"
        case 1, 2, 3:
            return "{\"command\":\"update\",\"message\":\"step \(index) of the start-up\",\"progress\":\(Double(index % 1000) / 1000),\"keep\":true}"
        case 4: return "{\"command\":\"status\"}"
        case 5: return "{\"command\":\"deactivate\"}"
        case 6: return "{\"command\":\"reactivate\"}"
        default: return "{\"command\":\"hide\",\"transition\":{\"kind\":\"crossDissolve\",\"duration\":0.02}}"
        }
    }

    static func sample(_ pid: Int32) -> Sample {
        let status = Calls.processStatus(pid)
        return Sample(residentKiB: status["VmRSS"] ?? 0, descriptors: Calls.descriptorCount(pid), threads: status["Threads"] ?? 0)
    }

    private static func describe(_ s: Sample) -> String {
        "VmRSS \(s.residentKiB) KiB, \(s.descriptors) descriptors, \(s.threads) threads"
    }

    private static func connect(_ path: String) -> FileDescriptor? {
        for _ in 0..<500 {
            if let fd = Calls.connect(path) { return fd }
            Calls.sleep(seconds: 0.01)
        }
        return nil
    }
}
