import SkeletonLayout

/// `skeletond bench-control --attacks` and the attack tests: one attack
/// against a fresh daemon process, with a second connection pinging every 10 ms throughout.
/// First 1 s of the same pinging with no attack (the quiet figure); then the attack's steps;
/// then `status` every 100 ms until its result is applied (or 20 s have gone); then 0.3 s
/// more. Frames late and drawn are the daemon's own counts over the attack, the memory its
/// VmRSS before and after and its peak (VmHWM) in between.
public enum AttackBenchmark {
    static let quietSeconds = 1.0
    /// The longest the attack's steps may take, and then its result to be applied.
    static let stepSeconds = 60.0
    static let applySeconds = 20.0
    static let tailSeconds = 0.3
    /// The longest a `status` before or after the attack may take to come back.
    static let statusSeconds = 60.0

    public static func run(_ attack: Attack, executable: String) throws(ToolError) -> AttackResult {
        let directory = "/tmp/skeletond-attack-\(BenchIO.processID)-\(attack.rawValue)"
        let plan = AttackPlan.of(attack, directory: directory)
        let daemon = try AttackDaemon(executable: executable, directory: directory, layouts: plan.layouts,
                                      start: AttackPlan.startLayout, files: plan.files)
        defer { daemon.stop() }
        guard let probeFD = daemon.connect() else { throw ToolError(["the daemon did not listen on \(daemon.socketPath)", daemon.log]) }
        let probe = AttackChannel(fd: probeFD, isSocket: true)
        guard let pingFD = BenchIO.connect(daemon.socketPath), let controlFD = BenchIO.connect(daemon.socketPath) else {
            throw ToolError("cannot connect to \(daemon.socketPath)")
        }
        let pinger = Pinger(channel: AttackChannel(fd: pingFD, isSocket: true))
        let control = AttackChannel(fd: controlFD, isSocket: true)
        let plymouth = daemon.connectPlymouth().map { AttackChannel(fd: $0, isSocket: true) }
        let fifo = daemon.openFIFO().map { AttackChannel(fd: $0, isSocket: false) }
        let channels = [probe, control] + [plymouth, fifo].compactMap { $0 }
        defer { ([pinger.channel] + channels).forEach { $0.close() } }
        if plan.steps.contains(where: { $0.target == .plymouth }) && plymouth == nil {
            throw ToolError(["the daemon did not answer on Plymouth's socket \(daemon.plymouthSocket)", String(daemon.log.suffix(2000))])
        }
        if plan.steps.contains(where: { $0.target == .fifo }) && fifo == nil {
            throw ToolError(["psplash's FIFO \(daemon.fifoPath) could not be opened for writing", String(daemon.log.suffix(2000))])
        }
        let loop = AttackLoop(pinger: pinger, channels: channels)
        func status() throws(ToolError) -> JSONValue {
            guard let reply = loop.request(probe, #"{"command":"status"}"#, seconds: statusSeconds), reply["ok"]?.boolValue == true else {
                throw ToolError(["the daemon did not answer status within \(Int(statusSeconds)) s (worst ping so far "
                                 + "\(Int(pinger.worst * 1000)) ms)", String(daemon.log.suffix(2000))])
            }
            return reply
        }

        // Started and drawing; then the quiet figure.
        _ = try status()
        loop.spin(seconds: 0.3)
        let quietStart = try status()
        pinger.restart(now: loop.now)
        loop.spin(seconds: quietSeconds)
        pinger.finish(now: loop.now)
        let quietWorst = pinger.worst

        let before = try status()
        let memoryBefore = daemon.memory
        BenchIO.resetPeakMemory(daemon.pid)
        let start = loop.now
        pinger.restart(now: start)
        let stepsDone = loop.run(plan.steps, targets: { target in
            switch target {
            case .control: control
            case .plymouth: plymouth
            case .fifo: fifo
            }
        }, seconds: stepSeconds)

        // Until the result is applied: status every 100 ms, judged as it comes.
        let check = AttackCheck(attack: attack, daemon: daemon, control: control, plymouth: plymouth)
        var verdict = (applied: false, detail: stepsDone ? "no status" : "the attack's steps did not finish in \(Int(stepSeconds)) s")
        let applyEnd = loop.now + applySeconds
        while stepsDone && loop.now < applyEnd {
            let asked = loop.now
            guard let reply = loop.request(probe, #"{"command":"status"}"#, seconds: applyEnd - asked) else { break }
            verdict = check.evaluate(status: reply)
            if verdict.applied { break }
            loop.spin(seconds: max(0, asked + 0.1 - loop.now))
        }
        let applyTime = loop.now - start
        loop.spin(seconds: tailSeconds)
        pinger.finish(now: loop.now)
        let memoryPeak = daemon.memory.peak
        let after = try status()
        let memoryAfter = daemon.memory
        func count(_ status: JSONValue, _ key: String) -> Int { Int(status[key]?.numberValue ?? 0) }
        return AttackResult(attack: attack, worstPingMilliseconds: pinger.worst * 1000, worstPingAt: pinger.worstAt,
                            quietWorstPingMilliseconds: quietWorst * 1000, pings: pinger.count,
                            framesLate: count(after, "framesLate") - count(before, "framesLate"),
                            framesDrawn: count(after, "framesDrawn") - count(before, "framesDrawn"),
                            quietFramesLate: count(before, "framesLate") - count(quietStart, "framesLate"),
                            quietFramesDrawn: count(before, "framesDrawn") - count(quietStart, "framesDrawn"),
                            rssBeforeKiB: memoryBefore.resident, rssPeakKiB: max(memoryPeak, memoryAfter.peak),
                            rssAfterKiB: memoryAfter.resident, applied: verdict.applied, detail: verdict.detail, seconds: applyTime)
    }
}
