import SkeletonLayout
import SkeletonSystem

/// The attack's one poll loop: the pinger, the hostile writes and the checks' requests go on
/// together without blocking, so the pinger measures the daemon and nothing else.
final class AttackLoop {
    let pinger: Pinger
    /// Every channel read as its replies come (the pinger's included).
    private let channels: [AttackChannel]

    init(pinger: Pinger, channels: [AttackChannel]) {
        self.pinger = pinger
        self.channels = [pinger.channel] + channels.filter { $0 !== pinger.channel }
    }

    var now: Double { BenchIO.monotonicSeconds() }

    /// One turn: waits at most until `deadline` (and 10 ms) for a channel, reads what came,
    /// sends a ping when one is due and writes what is queued.
    func turn(until deadline: Double) {
        let wait = max(0, min(deadline, pinger.deadline, now + Pinger.interval) - now)
        // A FIFO's writing end has nothing to read: it is watched only while bytes wait for it.
        let watches = channels.map { channel in
            var events: PollEvents = channel.isSocket ? .readable : []
            if channel.unsent > 0 { events.insert(.writable) }
            return Watch(descriptor: channel.fd, events: events)
        }
        let ready = BenchIO.ready(watches, timeoutMilliseconds: Int32((wait * 1000).rounded(.up)))
        for watch in ready where !watch.events.isDisjoint(with: [.readable, .hangUp, .error]) {
            guard let channel = channels.first(where: { $0.fd == watch.descriptor }), !channel.ended, channel.isSocket else { continue }
            channel.readAvailable()
        }
        let time = now
        pinger.collect(now: time)
        pinger.pump(now: time)
        for channel in channels where channel.unsent > 0 { channel.flush() }
    }

    /// Turns for `seconds`.
    func spin(seconds: Double) {
        let end = now + seconds
        while now < end { turn(until: end) }
    }

    /// Sends `line` on `channel` and turns until its reply (the next line there), at most `seconds`.
    func request(_ channel: AttackChannel, _ line: String, seconds: Double) -> JSONValue? {
        channel.queue(Array((line + "\n").utf8))
        channel.flush()
        let end = now + seconds
        while now < end && !channel.ended {
            if let reply = channel.takeLine() { return reply }
            turn(until: end)
        }
        return channel.takeLine()
    }

    /// Carries out `steps` in turn on their targets; false when one could not finish within
    /// `seconds` (a step whose target is missing fails at once).
    func run(_ steps: [AttackStep], targets: (AttackStep.Target) -> AttackChannel?, seconds: Double) -> Bool {
        let end = now + seconds
        for step in steps {
            let started = now
            switch step {
            case .write(let target, let bytes):
                guard let channel = targets(target) else { return false }
                channel.queue(bytes)
                channel.flush()
                while channel.unsent > 0 && !channel.ended { guard now < end else { return false }; turn(until: end) }
            case .keepWriting(let target, let line, let seconds):
                guard let channel = targets(target) else { return false }
                let batch = Array([[UInt8]](repeating: line, count: max(1, 4096 / line.count)).joined())
                while now < started + seconds {
                    if channel.unsent < batch.count { channel.queue(batch); channel.flush() }
                    turn(until: started + seconds)
                }
                while channel.unsent > 0 && !channel.ended { guard now < end else { return false }; turn(until: end) }
            case .awaitLines(let target, let count):
                guard let channel = targets(target) else { return false }
                while channel.linesReceived < count && !channel.ended { guard now < end else { return false }; turn(until: end) }
            case .awaitBytes(let target, let count):
                guard let channel = targets(target) else { return false }
                while channel.receivedCount < count && !channel.ended { guard now < end else { return false }; turn(until: end) }
            case .soak(let seconds):
                spin(seconds: seconds)
            }
        }
        return true
    }
}
