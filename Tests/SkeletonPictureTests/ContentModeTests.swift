import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import Testing

@Suite("Content modes")
struct ContentModeTests {
    static let red: UInt32 = 0xFFFF_0000

    /// A box with a solid 100x50 red picture placed in it by `mode`.
    static func render(_ mode: ContentMode, width: Int = 300, height: Int = 300) throws -> PixelBuffer {
        let directory = TemporaryDirectory("content-mode")
        defer { directory.remove() }
        let path = directory.write("red.png", PNGBytes.rgb(width: 100, height: 50) { _, _ in 0xFF0000 })
        return try PictureLoader().render(.file(path), mode: mode, width: width, height: height)
    }

    /// The rectangle of red pixels, after checking that every pixel is exactly red or transparent.
    static func redRectangle(_ image: PixelBuffer) -> PixelRect? {
        var rect: PixelRect?
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                #expect(p == red || p == 0, "pixel (\(x), \(y)) is \(String(p, radix: 16))")
                if p == red { rect = (rect ?? PixelRect(x: x, y: y, width: 1, height: 1)).union(PixelRect(x: x, y: y, width: 1, height: 1)) }
            }
        }
        if let rect { #expect(rect.area == image.pixels.filter { $0 == red }.count, "red pixels outside one rectangle") }
        return rect
    }

    @Test func aspectFitIsABandCentredVertically() throws {
        #expect(Self.redRectangle(try Self.render(.scaleAspectFit)) == PixelRect(x: 0, y: 75, width: 300, height: 150))
        #expect(Self.redRectangle(try Self.render(.scaleAspectFit, width: 300, height: 100)) == PixelRect(x: 50, y: 0, width: 200, height: 100))
    }

    @Test func aspectFillCoversTheBoxAndCrops() throws {
        #expect(Self.redRectangle(try Self.render(.scaleAspectFill)) == PixelRect(x: 0, y: 0, width: 300, height: 300))
        #expect(ContentMode.scaleAspectFill.placement(picture: (100, 50), box: (300, 300)) == PixelRect(x: -150, y: 0, width: 600, height: 300))
    }

    @Test func centerIsUnscaled() throws {
        #expect(Self.redRectangle(try Self.render(.center)) == PixelRect(x: 100, y: 125, width: 100, height: 50))
        // Larger than its box: cropped around the centre.
        #expect(Self.redRectangle(try Self.render(.center, width: 60, height: 20)) == PixelRect(x: 0, y: 0, width: 60, height: 20))
        #expect(ContentMode.center.placement(picture: (100, 50), box: (60, 20)) == PixelRect(x: -20, y: -15, width: 100, height: 50))
    }

    @Test func scaleToFillFillsTheBox() throws {
        #expect(Self.redRectangle(try Self.render(.scaleToFill, width: 37, height: 411)) == PixelRect(x: 0, y: 0, width: 37, height: 411))
    }

    @Test func reducedSizesRoundAndStayFlat() throws {
        // 100x50 in 33x33: 33x17 (16.5 rounds up), the odd pixel below.
        #expect(Self.redRectangle(try Self.render(.scaleAspectFit, width: 33, height: 33)) == PixelRect(x: 0, y: 8, width: 33, height: 17))
    }
}
