/// A control connection that sends `ping` every 10 ms (one at a time: the next goes 10 ms
/// after the last was sent, or at once when its reply came later) and keeps the longest round
/// trip since `restart`.
final class Pinger {
    let channel: AttackChannel
    static let interval = 0.010
    private static let ping = Array("{\"command\":\"ping\"}\n".utf8)
    private var sentAt: Double?
    private var nextDue = 0.0
    private var origin = 0.0
    private var answered = 0
    /// The longest round trip since `restart`, in seconds, and when that ping went (from the origin).
    private(set) var worst = 0.0
    private(set) var worstAt = 0.0
    /// Pings answered since `restart`.
    var count: Int { answered }

    init(channel: AttackChannel) { self.channel = channel }

    /// Forgets the figures; from `now` on they are measured anew.
    func restart(now: Double) {
        origin = now
        worst = 0
        worstAt = 0
        answered = 0
    }

    /// When the loop must look at the pinger again.
    var deadline: Double { sentAt == nil ? nextDue : .infinity }

    /// Sends a ping when one is due.
    func pump(now: Double) {
        guard sentAt == nil, now >= nextDue else { return }
        sentAt = now
        nextDue = now + Self.interval
        channel.queue(Self.ping)
        channel.flush()
    }

    /// Takes the replies that came.
    func collect(now: Double) {
        while channel.takeLine() != nil {
            guard let sent = sentAt else { continue }
            record(now - sent, sent: sent)
            answered += 1
            sentAt = nil
        }
    }

    /// The figures at `now`: a ping still unanswered counts with its wait so far.
    func finish(now: Double) {
        if let sent = sentAt { record(now - sent, sent: sent) }
    }

    private func record(_ roundTrip: Double, sent: Double) {
        guard roundTrip > worst else { return }
        worst = roundTrip
        worstAt = max(0, sent - origin)
    }
}
