import Testing
import SkeletonContent
import SkeletonRender

/// What the sprite cache keeps: the sprites something else holds, whatever their size, and at
/// most its spare bytes of the others, the least recently asked for dropped first.
@Suite struct SpriteCacheTests {
    /// A 16x16 sprite: 1 KiB.
    static func sprite() -> Result<Sprite, SpriteError> { .success(Sprite(pixels: PixelBuffer(width: 16, height: 16), x: 0, y: 0)) }

    /// `count` sprites kept one round each, as a status line changing with every command would be.
    static func fill(_ cache: inout SpriteCache<Int>, from first: Int = 0, count: Int) {
        for key in first..<first + count {
            cache.beginRound()
            cache.keep(sprite(), for: key)
        }
    }

    @Test func sparesStayWithinTheirBytes() {
        var cache = SpriteCache<Int>(spareBytes: 4 << 10)
        Self.fill(&cache, count: 1000)
        // Four spares of 1 KiB, and the two of the last two rounds.
        #expect(cache.count == 6)
        #expect(cache.result(for: 999) != nil)
        #expect(cache.result(for: 0) == nil)
    }

    @Test func aSpriteHeldElsewhereIsKept() {
        var cache = SpriteCache<Int>(spareBytes: 0)
        let held = Self.sprite()
        cache.keep(held, for: -1)
        Self.fill(&cache, count: 100)
        #expect(cache.result(for: -1) != nil)
        #expect(cache.count == 3)
        withExtendedLifetime(held) {}
    }

    @Test func theLeastRecentlyAskedForGoesFirst() {
        var cache = SpriteCache<Int>(spareBytes: 2 << 10)
        Self.fill(&cache, count: 3)
        cache.beginRound()
        _ = cache.result(for: 0)
        Self.fill(&cache, from: 3, count: 2)
        Self.fill(&cache, from: 5, count: 1)
        // 0 was asked for after 1 and 2 were made: they go first.
        #expect(cache.result(for: 0) != nil)
        #expect(cache.result(for: 1) == nil)
        #expect(cache.result(for: 2) == nil)
    }

    @Test func failuresAreBoundedByCount() {
        var cache = SpriteCache<Int>(spareBytes: 1 << 20, spareLimit: 8)
        for key in 0..<100 {
            cache.beginRound()
            cache.keep(.failure(SpriteError(nodePath: "n\(key)", reason: "missing")), for: key)
        }
        #expect(cache.count == 10)
    }
}
