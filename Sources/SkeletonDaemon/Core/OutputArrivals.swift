import SkeletonRender

/// Monitors plugged in while the skeleton shows: each dissolves in from black over the look's
/// transition, from its first frame (not from the uevent: a mode set and the first frame's
/// pictures come first), while the other outputs are left as they are.
struct OutputArrivals: Equatable {
    private enum Arrival: Equatable {
        case awaitingFirstFrame
        case since(Double)
    }

    private var arrivals: [String: Arrival] = [:]

    private static let ease = TimingCurve(.easeInOut)

    var isEmpty: Bool { arrivals.isEmpty }

    mutating func plugged(in added: [String], out removed: [String]) {
        for name in removed { arrivals[name] = nil }
        for name in added { arrivals[name] = .awaitingFirstFrame }
    }

    /// A frame is drawn at `now`: the outputs waiting for their first one start dissolving in.
    mutating func frameDrawn(at now: Double) {
        for (name, arrival) in arrivals where arrival == .awaitingFirstFrame { arrivals[name] = .since(now) }
    }

    /// How opaque `output`'s skeleton is at `now` (1 when it is not arriving), over `duration`.
    func opacity(of output: String, duration: Double, now: Double) -> Double {
        guard let arrival = arrivals[output] else { return 1 }
        guard case .since(let start) = arrival else { return 0 }
        let progress = duration > 0 ? (now - start) / duration : 1
        return progress >= 1 ? 1 : Self.ease(max(0, progress))
    }

    /// Ends the dissolves that are over: true when one ended (its last frame is due).
    mutating func advance(to now: Double, duration: Double) -> Bool {
        let before = arrivals.count
        arrivals = arrivals.filter { _, arrival in
            guard case .since(let start) = arrival else { return true }
            return duration > 0 && now < start + duration
        }
        return arrivals.count != before
    }
}
