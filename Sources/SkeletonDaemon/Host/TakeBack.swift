/// Taking the display back from another program that holds it: while going down (`shutdown`),
/// whatever holds it (a compositor still stopping) is asked for every `goingDownInterval` until it
/// is free; while the skeleton shows, a program that took DRM master without `deactivate` (it set
/// its own mode) is not fought: the display is asked for every `masterRetryInterval`, quietly, and
/// taken back when it lets go. Said once when it was taken, once when it is back.
struct TakeBack: Equatable {
    /// Set by `shutdown`: the display is taken back from whatever holds it, as soon as it is free.
    private(set) var whenFree = false
    /// When to ask again, while the display is waited for.
    private(set) var dueAt: Double?

    static let goingDownInterval = 0.02
    static let masterRetryInterval = 0.25

    /// What to do at a turn.
    enum Step: Equatable {
        case nothing
        /// Another program took the display: say so once; ask again later.
        case sayTaken
        /// Ask for the display now (`quietly`: its refusal is expected, not said).
        case ask(quietly: Bool)
    }

    mutating func goingDown() { whenFree = true }

    /// When the host must run again for this: the next ask, or at once when another program has
    /// just taken the display (`justTaken`), so that it is seen to without waiting.
    func due(now: Double, justTaken: Bool) -> Double? { dueAt ?? (justTaken ? now : nil) }

    /// At `now`: `released` (the display was let go by the daemon), `problem` (it cannot be drawn
    /// on), `heldByAnother` (another program is DRM master); `eligible` false while deactivated,
    /// switched away to another VT, or with no display.
    mutating func step(now: Double, eligible: Bool, released: Bool, problem: Bool, heldByAnother: Bool) -> Step {
        let goingDown = whenFree && (released || problem)
        let takenFromUs = !released && heldByAnother
        guard eligible, goingDown || takenFromUs else {
            dueAt = nil
            return .nothing
        }
        if dueAt == nil, takenFromUs, !goingDown {
            dueAt = now + Self.masterRetryInterval
            return .sayTaken
        }
        guard now >= dueAt ?? now else { return .nothing }
        return .ask(quietly: !goingDown)
    }

    /// After an ask at `now` (`quietly`, as `step` said): the display is back (`got`), or asked
    /// for again later: soon while going down, at the quiet pace otherwise.
    mutating func asked(now: Double, quietly: Bool, got: Bool) {
        dueAt = got ? nil : now + (quietly ? Self.masterRetryInterval : Self.goingDownInterval)
    }
}
