import SkeletonPicture
import SkeletonRender
import Testing

@Suite("PNG pictures")
struct PNGPictureTests {
    static func load(_ bytes: [UInt8], maxPixels: Int = 64 * 1024 * 1024) throws(PictureError) -> PixelBuffer {
        let directory = TemporaryDirectory("png-picture")
        defer { directory.remove() }
        return try PictureLoader(maxPixels: maxPixels).load(.file(directory.write("p.png", bytes))).pixels
    }

    @Test func rgbaIsPremultiplied() throws {
        let row: [UInt8] = [255, 0, 0, 128, 0, 255, 0, 0, 10, 20, 30, 255, 200, 100, 50, 64]
        let image = try Self.load(PNGBytes.file(width: 4, height: 1, colorType: 6, rows: [row]))
        // round(c * a / 255): 255 at 128 is 128; nothing at 0; 200, 100, 50 at 64 are 50, 25, 13.
        #expect(image.pixels == [0x8080_0000, 0x0000_0000, 0xFF0A_141E, 0x4032_190D])
    }

    @Test func greyWithAlphaIsPremultiplied() throws {
        let image = try Self.load(PNGBytes.file(width: 2, height: 1, colorType: 4, rows: [[200, 51, 7, 255]]))
        // 200 at 51: round(40) = 40.
        #expect(image.pixels == [0x3328_2828, 0xFF07_0707])
    }

    @Test func rgbWithoutAlphaIsOpaque() throws {
        let image = try Self.load(PNGBytes.rgb(width: 2, height: 2) { x, y in UInt32(x * 0x10 + y) << 8 | 0x7F0001 })
        #expect(image.pixels == [0xFF7F_0001, 0xFF7F_1001, 0xFF7F_0101, 0xFF7F_1101])
    }
}
