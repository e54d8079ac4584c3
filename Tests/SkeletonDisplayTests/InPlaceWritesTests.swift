@testable import SkeletonDisplay
import SkeletonRender
import Testing

@Suite("Frames written into the buffer on screen")
struct InPlaceWritesTests {
    let screen = PixelRect(x: 0, y: 0, width: 1024, height: 768)

    @Test func aFrameOfAtMostOneSixtyFourthOfTheScreenIsSmall() {
        var writes = InPlaceWrites()
        // 1024x768 / 64 = 12,288 pixels.
        let fits = writes.isSmall([PixelRect(x: 10, y: 10, width: 96, height: 128)], in: screen)
        #expect(fits)
        #expect(writes.expectsSmall)
        let over = writes.isSmall([PixelRect(x: 10, y: 10, width: 96, height: 128), PixelRect(x: 500, y: 500, width: 1, height: 1)], in: screen)
        #expect(!over, "the rectangles' areas add up")
        #expect(!writes.expectsSmall)
    }

    @Test func aWholeFrameLeavesTheGuessForTheNextFrameAsItWas() {
        var writes = InPlaceWrites()
        _ = writes.isSmall([PixelRect(x: 0, y: 0, width: 22, height: 22)], in: screen)
        let whole = writes.isSmall([screen], in: screen)
        #expect(!whole)
        #expect(writes.expectsSmall, "the whole frame drawn when the mirror is left says nothing of the next")
        _ = writes.isSmall([PixelRect(x: 0, y: 0, width: 500, height: 500)], in: screen)
        #expect(!writes.expectsSmall)
    }
}
