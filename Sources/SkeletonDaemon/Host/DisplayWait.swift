/// Waiting for a display that is not there yet: timed looks again (backing off from 0.5 s to
/// 8 s, for a card node that appears before its connectors are probed) besides inotify's, and the
/// end of the wait, begun once until a display is attached. A value: the host asks it and acts.
struct DisplayWait: Equatable {
    /// When to look again, while no display is open.
    private(set) var retryAt: Double?
    private var retryInterval = DisplayWait.firstInterval
    /// When the wait runs out (`display-wait`).
    private(set) var deadline: Double?
    private var begun = false
    /// Since when no display is open (for `status`).
    private(set) var since: Double?

    static let firstInterval = 0.5
    static let longestInterval = 8.0

    /// No display could be opened at `now`: the next look is due after the interval, which
    /// doubles. True when the wait begins now (and is to be said); it begins once.
    mutating func noDisplay(now: Double, waitSeconds: Double) -> Bool {
        if since == nil { since = now }
        retryAt = now + retryInterval
        retryInterval = min(retryInterval * 2, Self.longestInterval)
        guard deadline == nil, !begun else { return false }
        begun = true
        deadline = now + waitSeconds
        return true
    }

    /// A display is attached: nothing is waited for, and a later wait starts over.
    mutating func attached() { self = DisplayWait() }

    /// Whether a look is due at `now`; it is taken.
    mutating func takeDueLook(now: Double) -> Bool {
        guard let retryAt, now >= retryAt else { return false }
        self.retryAt = nil
        return true
    }

    /// Whether the wait ran out at `now`; it is said once.
    mutating func takeRunOut(now: Double) -> Bool {
        guard let deadline, now >= deadline else { return false }
        self.deadline = nil
        return true
    }
}
