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
}
