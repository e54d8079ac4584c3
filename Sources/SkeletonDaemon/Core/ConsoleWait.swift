import SkeletonLayout

/// A hide that waits until the text console shows something new (`hide --after-console`: a
/// getty's prompt, after the getty's start has cleared the screen), so that the console appears
/// in the frame after the skeleton goes, not seconds of a cleared one first; the skeleton goes at
/// `deadline` whatever the console shows.
struct ConsoleWait: Equatable {
    let transition: TransitionSpec
    let since: Double
    let deadline: Double
    /// The console's cells (`/dev/vcs`) when the hide was asked for.
    let shownAtHide: [UInt8]
    /// When the console is looked at next.
    private(set) var nextLook: Double

    /// Why a hide cannot wait for the console (in graphics mode, or unreadable).
    struct Unwaitable: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// How often the console is looked at: a frame's time at 20 fps.
    static let lookInterval = 0.05

    init(transition: TransitionSpec, since: Double, limit: Double, shownAtHide: [UInt8]) {
        self.transition = transition
        self.shownAtHide = shownAtHide
        self.since = since
        deadline = since + limit
        nextLook = since + Self.lookInterval
    }

    /// The next time anything is due: a look, or the deadline.
    var due: Double { min(nextLook, deadline) }

    mutating func looked(at now: Double) { nextLook = now + Self.lookInterval }

    /// Text that was not there at the hide: neither the screen as it was nor a blank one (a
    /// getty's start clears it first). A console that cannot be read (nil) has nothing to wait for.
    func showsSomethingNew(_ cells: [UInt8]?) -> Bool {
        guard let cells else { return true }
        return cells != shownAtHide && cells.contains { $0 != 0x20 && $0 != 0 }
    }
}
