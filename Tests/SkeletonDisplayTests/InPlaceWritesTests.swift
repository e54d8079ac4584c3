@testable import SkeletonDisplay
import SkeletonRender
import Testing

@Suite("Frames written into the buffer on screen")
struct InPlaceWritesTests {
    let screen = PixelRect(x: 0, y: 0, width: 1024, height: 768)
    let spinner = PixelRect(x: 501, y: 373, width: 22, height: 22)

    @Test func aFrameOfAtMostOneSixtyFourthOfTheScreenIsSmall() {
        var writes = InPlaceWrites()
        // 1024x768 / 64 = 12,288 pixels.
        let fits = writes.isSmall([PixelRect(x: 10, y: 10, width: 96, height: 128)], in: screen)
        #expect(fits)
        let over = writes.isSmall([PixelRect(x: 10, y: 10, width: 96, height: 128), PixelRect(x: 500, y: 500, width: 1, height: 1)], in: screen)
        #expect(!over, "the rectangles' areas add up")
    }

    @Test func smallFramesInARowAreExpectedToGoOn() {
        var writes = InPlaceWrites()
        for _ in 1..<InPlaceWrites.settle { _ = writes.isSmall([spinner], in: screen) }
        #expect(!writes.expectsSmall, "a few small frames between large ones keep the mirror")
        _ = writes.isSmall([spinner], in: screen)
        #expect(writes.expectsSmall)
        let whole = writes.isSmall([screen], in: screen)
        #expect(!whole)
        #expect(writes.expectsSmall, "the whole frame drawn when the mirror is left says nothing of the next")
        _ = writes.isSmall([PixelRect(x: 0, y: 0, width: 500, height: 500)], in: screen)
        #expect(!writes.expectsSmall, "one large frame brings the mirror back")
    }
}
