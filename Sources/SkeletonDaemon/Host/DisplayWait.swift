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
    /// A card (DRM or fbdev) was attached in this run: the machine has one, so a card that went
    /// away is waited for however long it takes, never replaced by memory. (A display server that
    /// goes is `display.wayland.whenGone`'s to decide.)
    private(set) var hadCard = false
    /// `auto` keeps waiting for a card past the wait instead of drawing into memory: set for the
    /// daemon started in the initramfs, whose card's driver may be only in the real root (an
    /// initramfs made without it). Memory there would leave the whole boot blank.
    var keepsWaitingForCard = false

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

    /// A display is attached (`card`: a card or a framebuffer, not memory or a window): nothing
    /// is waited for, and a later wait starts over.
    mutating func attached(card: Bool) {
        var fresh = DisplayWait()
        fresh.hadCard = hadCard || card
        fresh.keepsWaitingForCard = keepsWaitingForCard
        self = fresh
    }

    /// What the end of the wait does, as `display-wait` says.
    enum RunOut: Equatable {
        /// Keep waiting; why the memory output is not taken (nil: a backend was asked for by name).
        case keepWaiting(String?)
        case drawIntoMemory
    }

    /// At the end of the wait: the `auto` backend falls back to the memory output, unless the
    /// machine has (or had) a card to wait for.
    func runOut(backendIsAuto: Bool) -> RunOut {
        if !backendIsAuto { return .keepWaiting(nil) }
        if hadCard { return .keepWaiting("this machine's card went away, and the memory output would show nothing") }
        if keepsWaitingForCard { return .keepWaiting("in the initramfs, the card's driver may come only with the real root") }
        return .drawIntoMemory
    }

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
