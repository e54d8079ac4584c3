/// While a display is open and the provider watches for a better one (the native DRM driver
/// after the firmware's framebuffer): when to ask again, since a card node appears before its
/// connectors are probed, and how many more times.
struct ReplacementRetries: Equatable {
    private(set) var dueAt: Double?
    private var left = 0

    static let count = 16
    static let interval = 0.5

    /// A new card node: asked now, and again a few times.
    mutating func cardAppeared() { left = Self.count }

    /// The provider is asked now: no ask is due until it says it has nothing better.
    mutating func asking() { dueAt = nil }

    /// The provider had nothing better at `now`: asked again after the interval, while tries are left.
    mutating func nothingYet(now: Double) {
        guard left > 0 else { return }
        left -= 1
        dueAt = now + Self.interval
    }

    /// Whether the next ask is due at `now`; it is taken.
    mutating func takeDue(now: Double) -> Bool {
        guard let dueAt, now >= dueAt else { return false }
        self.dueAt = nil
        return true
    }
}
