import SkeletonLayout

/// A hide that waits until the text console shows something (`hide --after-console`: a getty's
/// prompt), so that the console appears in the frame after the skeleton goes, not seconds of an
/// empty one first; the skeleton goes at `deadline` whatever the console shows.
struct ConsoleWait: Equatable {
    let transition: TransitionSpec
    let since: Double
    let deadline: Double
    /// When the console is looked at next.
    private(set) var nextLook: Double

    /// How often the console is looked at: a frame's time at 20 fps.
    static let lookInterval = 0.05

    init(transition: TransitionSpec, since: Double, limit: Double) {
        self.transition = transition
        self.since = since
        deadline = since + limit
        nextLook = since + Self.lookInterval
    }

    /// The next time anything is due: a look, or the deadline.
    var due: Double { min(nextLook, deadline) }

    mutating func looked(at now: Double) { nextLook = now + Self.lookInterval }
}
