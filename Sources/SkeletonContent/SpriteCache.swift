import SkeletonRender

/// Sprites made, by what they were made for. A sprite that something else still holds (a frame
/// renderer, the picture loader) costs nothing more here and is kept; of the spare ones, held by
/// this cache alone (the status line of three commands ago), at most `spareBytes` and
/// `spareLimit` are kept, the least recently asked for dropped first. What was asked for or made
/// in this round or the one before is never dropped: a renderer waiting for it has not asked yet.
package struct SpriteCache<Key: Hashable> {
    package let spareBytes: Int
    package let spareLimit: Int
    private var entries: [Key: Entry] = [:]
    private var stamp = 0
    private var roundStarts = (previous: 0, current: 0)

    private struct Entry {
        /// nil for a failure.
        var pixels: PixelBuffer?
        let x: Int
        let y: Int
        let failure: SpriteError?
        var lastAsked: Int
        var bytes: Int { pixels.map { $0.width * $0.height * 4 } ?? 0 }

        init(_ result: Result<Sprite, SpriteError>, lastAsked: Int) {
            switch result {
            case .success(let sprite): (pixels, x, y, failure) = (sprite.pixels, sprite.x, sprite.y, nil)
            case .failure(let error): (pixels, x, y, failure) = (nil, 0, 0, error)
            }
            self.lastAsked = lastAsked
        }

        var result: Result<Sprite, SpriteError> {
            guard let pixels else { return .failure(failure!) }
            return .success(Sprite(pixels: pixels, x: x, y: y))
        }
    }

    package init(spareBytes: Int, spareLimit: Int = 256) {
        self.spareBytes = spareBytes
        self.spareLimit = spareLimit
    }

    package var count: Int { entries.count }

    /// What was made for `key`, if it is kept; it counts as asked for now.
    package mutating func result(for key: Key) -> Result<Sprite, SpriteError>? {
        guard entries[key] != nil else { return nil }
        stamp += 1
        entries[key]!.lastAsked = stamp
        return entries[key]!.result
    }

    /// Keeps `result` for `key`, then drops spare sprites over the bounds.
    package mutating func keep(_ result: Result<Sprite, SpriteError>, for key: Key) {
        stamp += 1
        entries[key] = Entry(result, lastAsked: stamp)
        dropSpares()
    }

    /// A new round (a turn of the daemon's loop, a tool's request): what the round before last
    /// asked for may be dropped now.
    package mutating func beginRound() {
        roundStarts = (roundStarts.current, stamp)
    }

    private mutating func dropSpares() {
        var spares: [(key: Key, lastAsked: Int, bytes: Int)] = []
        // By key: a view of the dictionary (its indices) held meanwhile would make every entry look shared.
        for key in Array(entries.keys) where entries[key]!.lastAsked <= roundStarts.previous {
            let entry = (lastAsked: entries[key]!.lastAsked, bytes: entries[key]!.bytes, failed: entries[key]!.failure != nil)
            guard entry.failed || isKnownUniquelyReferenced(&entries[key]!.pixels) else { continue }
            spares.append((key, entry.lastAsked, entry.bytes))
        }
        var bytes = spares.reduce(0) { $0 + $1.bytes }
        var left = spares.count
        for spare in spares.sorted(by: { $0.lastAsked < $1.lastAsked }) where bytes > spareBytes || left > spareLimit {
            entries[spare.key] = nil
            bytes -= spare.bytes
            left -= 1
        }
    }
}
