import SkeletonLayout
import SkeletonSystem

/// `skeletond bench-control`: command round trips against a real daemon process that is
/// animating, from 1 and from N concurrent clients driven by one poll loop; pings while another
/// client floods requests and never reads its replies; frames late meanwhile (from the
/// daemon's own count); and wake-ups while nothing moves.
public enum ControlBenchmark {
    public struct Result: Sendable {
        public var lines: [String]
        public var pingP99Milliseconds: Double
        /// Ping p99 on a second connection while one client floods `tree` requests unread.
        public var floodPingP99Milliseconds: Double
        public var framesLate: Int
        public var idleWakeupsPerSecond: Double
    }

    typealias Calls = BenchIO

    public static func run(executable: String, layoutsDirectory: String, clients: Int, requests: Int) throws(ToolError) -> Result {
        let directory = "/tmp/skeletond-bench-\(Calls.processID)"
        Calls.makeDirectory(directory)
        let socketPath = directory + "/control.sock"
        let settingsPath = directory + "/settings.json"
        Calls.writeFile(settingsPath, "{}")
        let arguments = [executable, "run", "--config", settingsPath, "--socket", socketPath, "--layouts", layoutsDirectory,
                         "--layout", "default", "--backend", "memory", "--size", "1920x1080", "--frame-cache", "none",
                         "--log-level", Calls.environment("SKELETOND_BENCH_LOG") ?? "warning"]
        let pid = try Calls.spawn(arguments)
        defer {
            Calls.stop(pid)
            Calls.removeFile(settingsPath)
            Calls.removeDirectory(directory)
        }
        guard let probe = waitForSocket(socketPath) else { throw ToolError("the daemon did not start on \(socketPath)") }
        defer { Calls.close(probe) }
        let control = BenchClient(fd: probe)

        var lines: [String] = []
        let lateBefore = control.status()["framesLate"]?.numberValue ?? 0
        let ping = Array("{\"command\":\"ping\"}\n".utf8)
        let tints = ["clouds", "silver"].map { Array("{\"command\":\"update\",\"tint\":\"\($0)\"}\n".utf8) }
        var pingP99 = 0.0
        let rounds: [(clients: Int, interval: Double?, label: String)] = [
            (1, nil, "back to back"), (clients, nil, "back to back (saturating)"), (clients, 0.02, "each 50 requests/s"),
        ]
        for round in rounds {
            let sockets = (0..<round.clients).compactMap { _ in Calls.connect(socketPath) }
            defer { sockets.forEach(Calls.close) }
            let count = round.interval == nil ? requests : min(requests, round.clients * 100)
            let pings = drive(sockets, requests: count, interval: round.interval) { _ in ping }
            let updates = drive(sockets, requests: count, interval: round.interval) { i in tints[i % 2] }
            for (name, values) in [("ping  ", pings), ("update", updates)] {
                lines.append("\(name) \(pad(round.clients)) client(s), \(round.label): p50 \(percentile(values, 0.5).fixed(3)) ms, p99 \(percentile(values, 0.99).fixed(3)) ms (\(values.count) requests)")
            }
            if round.clients == 1 || round.interval != nil { pingP99 = max(pingP99, percentile(pings, 0.99)) }
        }

        // One client sends `tree` requests as fast as the socket takes them and never reads.
        let rssBefore = Calls.processStatus(pid)["VmRSS"] ?? 0
        guard let flooder = Calls.connect(socketPath), let pinger = Calls.connect(socketPath) else {
            throw ToolError("cannot connect to \(socketPath)")
        }
        defer { Calls.close(flooder); Calls.close(pinger) }
        var flood: [UInt8] = []
        for _ in 0..<256 { flood += Array("{\"command\":\"tree\"}\n".utf8) }
        var flooded = 0
        let floodPings = drive([pinger], requests: min(requests, 5000), beforeEach: {
            while case let n = Calls.sendWithoutWaiting(flooder, flood), n > 0 { flooded += n }
        }) { _ in ping }
        let rssAfter = Calls.processStatus(pid)["VmRSS"] ?? 0
        let floodP99 = percentile(floodPings, 0.99)
        lines.append("ping    1 client(s) while another floods tree requests unread: p50 \(percentile(floodPings, 0.5).fixed(3)) ms, p99 \(floodP99.fixed(3)) ms (\(floodPings.count) requests; \(flooded >> 10) KiB flooded)")
        lines.append("daemon memory (VmRSS) before the flood \(rssBefore >> 10) MiB, after \(rssAfter >> 10) MiB")

        let status = control.status()
        let late = Int((status["framesLate"]?.numberValue ?? 0) - lateBefore)
        lines.append("frames late while serving: \(late) (of \(JSONValue.formatNumber(status["framesDrawn"]?.numberValue ?? 0)) drawn, \(JSONValue.formatNumber(status["frameRate"]?.numberValue ?? 0)) fps)")

        // Nothing moving: a static presentation, then count the daemon's context switches.
        _ = control.request("{\"command\":\"update\",\"animated\":false}")
        Calls.sleep(seconds: 0.2)
        let before = contextSwitches(pid)
        Calls.sleep(seconds: 1)
        let wakeups = Double(contextSwitches(pid) - before)
        lines.append("idle (static presentation): \(JSONValue.formatNumber(wakeups)) wake-ups in 1 s")
        return Result(lines: lines, pingP99Milliseconds: pingP99, floodPingP99Milliseconds: floodP99, framesLate: late,
                      idleWakeupsPerSecond: wakeups)
    }

    /// Each socket sends a request, waits for its reply, and sends the next (at once, or
    /// `interval` seconds after the previous one when paced), until `requests` in all.
    private static func drive(_ sockets: [FileDescriptor], requests: Int, interval: Double? = nil, beforeEach: () -> Void = {},
                              body: (Int) -> [UInt8]) -> [Double] {
        var latencies: [Double] = []
        var sent = 0
        var started = [Double](repeating: 0, count: sockets.count)
        var due = [Double?](repeating: nil, count: sockets.count)
        var buffers = [[UInt8]](repeating: [], count: sockets.count)
        var inFlight = [Bool](repeating: false, count: sockets.count)
        func send(_ i: Int) {
            guard sent < requests else { return }
            beforeEach()
            let bytes = body(sent)
            sent += 1
            due[i] = nil
            started[i] = Calls.monotonicSeconds()
            Calls.sendAll(sockets[i], bytes)
            inFlight[i] = true
        }
        let origin = Calls.monotonicSeconds()
        for i in sockets.indices {
            // Paced clients start spread over one interval so they do not arrive in lockstep.
            if let interval { due[i] = origin + interval * Double(i) / Double(sockets.count) } else { send(i) }
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while inFlight.contains(true) || (sent < requests && due.contains { $0 != nil }) {
            let now = Calls.monotonicSeconds()
            for i in sockets.indices { if let d = due[i], d <= now { send(i) } }
            let nextDue = due.compactMap { $0 }.min()
            let timeout = nextDue.map { Int32(max(0, ($0 - Calls.monotonicSeconds()) * 1000)) } ?? 5000
            let ready = Calls.readable(sockets, timeoutMilliseconds: timeout)
            if ready.isEmpty && nextDue == nil { break }
            for i in ready {
                let n = Calls.read(sockets[i], into: &chunk)
                guard n > 0 else { inFlight[i] = false; continue }
                buffers[i] += chunk[0..<n]
                while let newline = buffers[i].firstIndex(of: 0x0A) {
                    buffers[i].removeFirst(newline + 1)
                    latencies.append((Calls.monotonicSeconds() - started[i]) * 1000)
                    inFlight[i] = false
                    if let interval { due[i] = started[i] + interval } else { send(i) }
                }
            }
        }
        return latencies
    }

    private static func waitForSocket(_ path: String) -> FileDescriptor? {
        for _ in 0..<500 {
            if let fd = Calls.connect(path) { return fd }
            Calls.sleep(seconds: 0.01)
        }
        return nil
    }

    /// Voluntary plus involuntary context switches of a process (its wake-ups).
    private static func contextSwitches(_ pid: Int32) -> Int {
        let status = Calls.processStatus(pid)
        return (status["voluntary_ctxt_switches"] ?? 0) + (status["nonvoluntary_ctxt_switches"] ?? 0)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
    }

    private static func pad(_ n: Int) -> String { n < 10 ? " \(n)" : "\(n)" }
}

/// A blocking request/reply helper for the benchmark's control connection.
private struct BenchClient {
    let fd: FileDescriptor

    func request(_ line: String) -> JSONValue {
        BenchIO.sendAll(fd, Array((line + "\n").utf8))
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !reply.contains(0x0A) {
            let n = BenchIO.read(fd, into: &chunk)
            if n <= 0 { break }
            reply += chunk[0..<n]
        }
        return (try? JSONValue.parse(reply.prefix { $0 != 0x0A })) ?? .null
    }

    func status() -> JSONValue { request("{\"command\":\"status\"}") }
}
