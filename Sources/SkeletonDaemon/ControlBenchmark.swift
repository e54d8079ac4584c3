#if canImport(Glibc)
import Glibc
#endif
import CSkeletonSystem
import SkeletonLayout

/// `skeletond bench-control`: command round trips against a real daemon process that is
/// animating, from 1 and from N concurrent clients driven by one poll loop; frames late
/// meanwhile (from the daemon's own count); and wake-ups while nothing moves.
public enum ControlBenchmark {
    public struct Result: Sendable {
        public var lines: [String]
        public var pingP99Milliseconds: Double
        public var framesLate: Int
        public var idleWakeupsPerSecond: Double
    }

    public static func run(executable: String, layoutsDirectory: String, clients: Int, requests: Int) throws(DaemonError) -> Result {
        let directory = "/tmp/skeletond-bench-\(getpid())"
        try? SystemCalls.makeDirectory(directory, mode: 0o700)
        let socketPath = directory + "/control.sock"
        let settingsPath = directory + "/settings.json"
        let fd = open(settingsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = write(fd, "{}", 2)
        close(fd)
        let arguments = [executable, "run", "--config", settingsPath, "--socket", socketPath, "--layouts", layoutsDirectory,
                         "--layout", "default", "--backend", "memory", "--size", "1920x1080", "--log-level", getenv("SKELETOND_BENCH_LOG").map { String(cString: $0) } ?? "warning"]
        let pid = try spawn(arguments)
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            unlink(settingsPath)
            rmdir(directory)
        }
        guard let probe = waitForSocket(socketPath) else { throw DaemonError("the daemon did not start on \(socketPath)") }
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
            let sockets = (0..<round.clients).compactMap { _ in try? SystemCalls.unixConnect(socketPath) }
            defer { sockets.forEach { close($0) } }
            let count = round.interval == nil ? requests : min(requests, round.clients * 100)
            let pings = drive(sockets, requests: count, interval: round.interval) { _ in ping }
            let updates = drive(sockets, requests: count, interval: round.interval) { i in tints[i % 2] }
            for (name, values) in [("ping  ", pings), ("update", updates)] {
                lines.append("\(name) \(pad(round.clients)) client(s), \(round.label): p50 \(percentile(values, 0.5).fixed(3)) ms, p99 \(percentile(values, 0.99).fixed(3)) ms (\(values.count) requests)")
            }
            if round.clients == 1 || round.interval != nil { pingP99 = max(pingP99, percentile(pings, 0.99)) }
        }
        let status = control.status()
        let late = Int((status["framesLate"]?.numberValue ?? 0) - lateBefore)
        lines.append("frames late while serving: \(late) (of \(JSONValue.formatNumber(status["framesDrawn"]?.numberValue ?? 0)) drawn, \(JSONValue.formatNumber(status["frameRate"]?.numberValue ?? 0)) fps)")

        // Nothing moving: a static presentation, then count the daemon's context switches.
        _ = control.request("{\"command\":\"update\",\"animated\":false}")
        sleep(seconds: 0.2)
        let before = contextSwitches(pid)
        sleep(seconds: 1)
        let wakeups = Double(contextSwitches(pid) - before)
        lines.append("idle (static presentation): \(JSONValue.formatNumber(wakeups)) wake-ups in 1 s")
        close(probe)
        return Result(lines: lines, pingP99Milliseconds: pingP99, framesLate: late, idleWakeupsPerSecond: wakeups)
    }

    /// Each socket sends a request, waits for its reply, and sends the next (at once, or
    /// `interval` seconds after the previous one when paced), until `requests` in all.
    private static func drive(_ sockets: [Int32], requests: Int, interval: Double? = nil, body: (Int) -> [UInt8]) -> [Double] {
        var latencies: [Double] = []
        var sent = 0
        var started = [Double](repeating: 0, count: sockets.count)
        var due = [Double?](repeating: nil, count: sockets.count)
        var buffers = [[UInt8]](repeating: [], count: sockets.count)
        var inFlight = [Bool](repeating: false, count: sockets.count)
        func send(_ i: Int) {
            guard sent < requests else { return }
            let bytes = body(sent)
            sent += 1
            due[i] = nil
            started[i] = SystemCalls.monotonicSeconds()
            _ = bytes.withUnsafeBytes { Glibc.send(sockets[i], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            inFlight[i] = true
        }
        let origin = SystemCalls.monotonicSeconds()
        for i in sockets.indices {
            // Paced clients start spread over one interval so they do not arrive in lockstep.
            if let interval { due[i] = origin + interval * Double(i) / Double(sockets.count) } else { send(i) }
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while inFlight.contains(true) || (sent < requests && due.contains { $0 != nil }) {
            let now = SystemCalls.monotonicSeconds()
            for i in sockets.indices { if let d = due[i], d <= now { send(i) } }
            let nextDue = due.compactMap { $0 }.min()
            let timeout = nextDue.map { Int32(max(0, ($0 - SystemCalls.monotonicSeconds()) * 1000)) } ?? 5000
            let ready = SystemCalls.pollReady(sockets.map { Watch(descriptor: $0, events: .readable) }, timeoutMilliseconds: timeout)
            if ready.isEmpty && nextDue == nil { break }
            for entry in ready {
                guard let i = sockets.firstIndex(of: entry.descriptor) else { continue }
                let n = chunk.withUnsafeMutableBytes { read(sockets[i], $0.baseAddress, $0.count) }
                guard n > 0 else { inFlight[i] = false; continue }
                buffers[i] += chunk[0..<n]
                while let newline = buffers[i].firstIndex(of: 0x0A) {
                    buffers[i].removeFirst(newline + 1)
                    latencies.append((SystemCalls.monotonicSeconds() - started[i]) * 1000)
                    inFlight[i] = false
                    if let interval { due[i] = started[i] + interval } else { send(i) }
                }
            }
        }
        return latencies
    }

    private static func sleep(seconds: Double) {
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) < 0 && errno == EINTR { pause = remaining }
    }

    private static func spawn(_ arguments: [String]) throws(DaemonError) -> pid_t {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], nil, nil, &argv, environ)
        guard result == 0 else { throw DaemonError("cannot start \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }

    private static func waitForSocket(_ path: String) -> Int32? {
        for _ in 0..<500 {
            if let fd = try? SystemCalls.unixConnect(path) { return fd }
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
        return nil
    }

    /// Voluntary plus involuntary context switches of a process (its wake-ups).
    private static func contextSwitches(_ pid: pid_t) -> Int {
        guard let bytes = SystemCalls.readFile("/proc/\(pid)/status") else { return 0 }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").reduce(0) { total, line in
            guard line.contains("ctxt_switches"), let value = line.split(separator: ":").last,
                  let n = Int(value.trimmingCharacters()) else { return total }
            return total + n
        }
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
    let fd: Int32

    func request(_ line: String) -> JSONValue {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !reply.contains(0x0A) {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            reply += chunk[0..<n]
        }
        return (try? JSONValue.parse(reply.prefix { $0 != 0x0A })) ?? .null
    }

    func status() -> JSONValue { request("{\"command\":\"status\"}") }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "k" || $0 == "B" }.reversed())
    }
}
