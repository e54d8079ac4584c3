import SkeletonDisplay
import SkeletonRender
import Testing

@Suite("Two scan-out buffers: what each lacks")
struct BufferPairTests {
    @Test func aPairCopiesWholeFramesUntilBothBuffersHoldOne() {
        let bounds = PixelRect(x: 0, y: 0, width: 50, height: 40)
        let a = PixelRect(x: 1, y: 1, width: 10, height: 5), b = PixelRect(x: 5, y: 1, width: 10, height: 5)
        var pair = BufferPair()
        #expect(pair.backLacks == nil)
        #expect(pair.rectsToCopy(damage: [a], mirrored: false, bounds: bounds) == [bounds])
        pair.backFilled(damage: [a])
        pair.flipped()
        #expect(pair.front == 1 && pair.backLacks == nil, "buffer 0 has never been filled")
        pair.backFilled(damage: [a])
        pair.flipped()
        #expect(pair.backLacks == [a])
        // Buffer 1 holds the frame before last: it needs the last frame's damage too.
        #expect(pair.rectsToCopy(damage: [b], mirrored: false, bounds: bounds) == [PixelRect(x: 1, y: 1, width: 14, height: 5)])
        #expect(pair.rectsToCopy(damage: [b], mirrored: true, bounds: bounds).isEmpty, "the renderer drew [a] too")
        pair.invalidate()
        #expect(pair.rectsToCopy(damage: [b], mirrored: true, bounds: bounds) == [bounds])
    }

    @Test func writesIntoTheBufferOnScreenAddToWhatTheOtherLacks() {
        let bounds = PixelRect(x: 0, y: 0, width: 50, height: 40)
        let a = PixelRect(x: 1, y: 1, width: 4, height: 4), b = PixelRect(x: 30, y: 20, width: 4, height: 4)
        let c = PixelRect(x: 40, y: 2, width: 3, height: 3)
        var pair = BufferPair()
        pair.backFilled(damage: [a])
        pair.flipped()
        pair.backFilled(damage: [a])
        pair.flipped()
        pair.frontUpdated(damage: [b])
        #expect(pair.frontHoldsItsFrame, "the buffer on screen holds the frame written into it")
        #expect(pair.backLacks == [a, b])
        // The next flip brings the other buffer up to date with both and the new damage.
        #expect(pair.rectsToCopy(damage: [c], mirrored: false, bounds: bounds) == [a, c, b])
        pair.backFilled(damage: [c])
        pair.flipped()
        #expect(pair.backLacks == [c], "the buffer shown before lacks only the last frame's damage")
        // Many scattered writes: the other buffer is taken as stale and copied whole.
        for i in 0...BufferPair.lacksLimit {
            pair.frontUpdated(damage: [PixelRect(x: (i % 4) * 12, y: 10 + (i / 4) * 7, width: 1, height: 1)])
        }
        #expect(pair.backLacks == nil)
        #expect(pair.rectsToCopy(damage: [c], mirrored: false, bounds: bounds) == [bounds])
    }
}
