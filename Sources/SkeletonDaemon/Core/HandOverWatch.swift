import SkeletonLayout

/// After `deactivate` (a display server is about to take the card) the app is to say once it
/// has drawn that the skeleton may go (`hide`, usually `hide --retain`). When nothing says so
/// within `patience`, the log says which step of the hand-over is waiting, once: the frame
/// stays on the card meanwhile, so a kiosk whose app never draws shows the skeleton, not black.
struct HandOverWatch {
    static let patience = 30.0
    private var since: Double?

    /// `deactivate` at `now`.
    mutating func began(at now: Double) { since = now }

    /// A hide, `reactivate` or going down: nothing is waited for.
    mutating func ended() { since = nil }

    /// When to look again, if anything is waited for.
    var deadline: Double? { since.map { $0 + Self.patience } }

    /// The line to log when the wait has run out (once), else nil.
    mutating func overdue(now: Double) -> String? {
        guard let since, now >= since + Self.patience else { return nil }
        self.since = nil
        return "hand-over: deactivated \(JSONValue.formatNumber((now - since).rounded())) s ago for a display server, and nothing has "
            + "said since that the app has drawn (the recipe's `skeletonctl hide --retain` after the app's first frame): "
            + "the skeleton's frame stays on the card"
    }
}
