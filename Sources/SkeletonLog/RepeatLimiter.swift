/// Bounds how often one kind of complaint is logged: at most `burst` lines of a key per
/// `window` seconds; the rest are counted, and the next line of that key that is written says
/// how many were left out (so a client sending a million bad bytes costs a few lines, and the
/// count is not lost).
struct RepeatLimiter {
    var burst = 5
    var window = 10.0
    private var keys: [String: Entry] = [:]

    private struct Entry {
        var windowStart: Double
        var written: Int
        var dropped: Int
    }

    /// Whether a line of `key` may be written at `now`, and how many were left out before it.
    mutating func admit(_ key: String, now: Double) -> (admitted: Bool, dropped: Int) {
        var entry = keys[key] ?? Entry(windowStart: now, written: 0, dropped: 0)
        if now - entry.windowStart >= window {
            entry.windowStart = now
            entry.written = 0
        }
        guard entry.written < burst else {
            entry.dropped += 1
            keys[key] = entry
            return (false, 0)
        }
        entry.written += 1
        let dropped = entry.dropped
        entry.dropped = 0
        keys[key] = entry
        if keys.count > 256 { keys = keys.filter { now - $0.value.windowStart < window || $0.value.dropped > 0 } }
        return (true, dropped)
    }

    /// The counts never said, by key, cleared (for the last lines at exit).
    mutating func takeUnsaid() -> [(key: String, dropped: Int)] {
        let unsaid = keys.filter { $0.value.dropped > 0 }.map { (key: $0.key, dropped: $0.value.dropped) }.sorted { $0.key < $1.key }
        for k in unsaid.map(\.key) { keys[k]?.dropped = 0 }
        return unsaid
    }
}
