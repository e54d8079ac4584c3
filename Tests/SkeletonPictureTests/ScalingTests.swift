import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import Testing

@Suite("Scaling quality")
struct ScalingTests {
    static func loader(_ bytes: [UInt8]) -> (PictureLoader, PictureSource, TemporaryDirectory) {
        let directory = TemporaryDirectory("scaling")
        return (PictureLoader(), .file(directory.write("p.png", bytes)), directory)
    }

    @Test func anEnlargedEdgeIsARampNotAStep() throws {
        let (loader, source, directory) = Self.loader(PNGBytes.rgb(width: 2, height: 1) { x, _ in x == 0 ? 0x000000 : 0xFFFFFF })
        defer { directory.remove() }
        let image = try loader.render(source, mode: .scaleToFill, width: 100, height: 1)
        let levels = image.pixels.map { Int($0 & 0xFF) }
        #expect(image.pixels.allSatisfy { $0 >> 24 == 0xFF && $0 & 0xFF == $0 >> 8 & 0xFF && $0 & 0xFF == $0 >> 16 & 0xFF })
        #expect(levels.first == 0 && levels.last == 255)
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 }, "\(levels)")
        let between = levels.filter { $0 > 0 && $0 < 255 }
        #expect(between.count >= 40, "\(levels)")
        #expect(levels[49] < 128 && levels[50] > 127, "\(levels)")
    }

    @Test func aReducedCheckerboardIsGrey() throws {
        let (loader, source, directory) = Self.loader(PNGBytes.rgb(width: 64, height: 64) { x, y in (x + y) % 2 == 0 ? 0xFFFFFF : 0 })
        defer { directory.remove() }
        for size in [8, 7, 5, 3] {
            let image = try loader.render(source, mode: .scaleToFill, width: size, height: size)
            for p in image.pixels {
                #expect(p >> 24 == 0xFF && (0x7C...0x83).contains(p & 0xFF), "\(size)x\(size): \(String(p, radix: 16))")
            }
        }
    }

    @Test func transparentNeighboursDoNotDarkenAnEdge() throws {
        // White opaque beside fully transparent black: the ramp keeps colour equal to alpha
        // (premultiplied white at every opacity), never grey.
        let bytes = PNGBytes.file(width: 2, height: 1, colorType: 6, rows: [[255, 255, 255, 255, 0, 0, 0, 0]])
        let (loader, source, directory) = Self.loader(bytes)
        defer { directory.remove() }
        let image = try loader.render(source, mode: .scaleToFill, width: 20, height: 3)
        for p in image.pixels { #expect(p & 0xFF == p >> 24 && p >> 8 & 0xFF == p >> 24, "\(String(p, radix: 16))") }
        #expect(Set(image.pixels.map { $0 >> 24 }).count > 5)
    }

    @Test func theSameSizeIsAnExactCopy() throws {
        let (loader, source, directory) = Self.loader(PNGBytes.rgb(width: 9, height: 7) { x, y in UInt32(x * 29 + y * 31) & 0xFF | 0x123400 })
        defer { directory.remove() }
        let original = try loader.load(source).pixels.pixels
        #expect(try loader.render(source, mode: .center, width: 9, height: 7).pixels == original)
        #expect(try loader.render(source, mode: .scaleToFill, width: 9, height: 7).pixels == original)
    }
}
