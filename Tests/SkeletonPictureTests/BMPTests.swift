import SkeletonPicture
import SkeletonRender
import Testing

/// BMPs are read as the firmware's logo: through a BGRT directory.
@Suite("BMP pictures")
struct BMPTests {
    static func load(_ bmp: [UInt8]) throws(PictureError) -> [UInt32] {
        let directory = BGRTTests.firmware(image: bmp, x: 0, y: 0)
        defer { directory.remove() }
        return try PictureLoader(bgrtDirectory: directory.path).load(.bgrt).pixels.pixels
    }

    @Test func twentyFourBitBottomUp() throws {
        // 3 pixels a row: 9 bytes padded to 12.
        let pixels: [UInt32] = [0x010203, 0xFF0000, 0x00FF00, 0x0000FF, 0x808080, 0xFEDCBA]
        #expect(try Self.load(BMPBytes.bottomUp24(width: 3, height: 2, pixels: pixels)) == pixels.map { 0xFF00_0000 | $0 })
    }

    @Test func thirtyTwoBitTopDown() throws {
        // The fourth byte (0 or junk) is not alpha: the firmware blits the logo opaque.
        let words: [UInt32] = [0x0011_2233, 0xAB44_5566, 0x0077_8899, 0xFFAA_BBCC]
        #expect(try Self.load(BMPBytes.topDown32(width: 2, height: 2, words: words))
            == [0xFF11_2233, 0xFF44_5566, 0xFF77_8899, 0xFFAA_BBCC])
    }

    @Test func thirtyTwoBitBitfields() throws {
        // Red in the low byte, blue at the top (an R8G8B8X8 order).
        let words: [UInt32] = [0x3322_1100, 0x0000_00FF, 0xFF00_0000]
        let bmp = BMPBytes.topDown32(width: 3, height: 1, words: words, masks: [0x0000_FF00, 0x00FF_0000, 0xFF00_0000])
        #expect(try Self.load(bmp) == [0xFF11_2233, 0xFF00_0000, 0xFF00_00FF])
    }

    @Test func unsupportedAndBrokenBMPsAreNamed() {
        let palette = BMPBytes.file(width: 1, height: 1, bitsPerPixel: 8, compression: 0, masks: [], data: [0, 0, 0, 0])
        let short = Array(BMPBytes.bottomUp24(width: 5, height: 5, pixels: Array(repeating: 0, count: 25)).dropLast(3))
        let cases: [([UInt8], String)] = [
            (palette, "a BMP of 8 bits per pixel"),
            (short, "truncated"),
            (Array("BMnot really".utf8), "truncated"),
            (PNGBytes.rgb(width: 1, height: 1) { _, _ in 0 }, "not a BMP"),
        ]
        for (bytes, reason) in cases {
            #expect(throws: PictureError.self) { try Self.load(bytes) }
            do { _ = try Self.load(bytes) } catch {
                #expect(error.description.contains("/image: ") && error.reason.contains(reason), "\(error)")
            }
        }
    }
}
