import SkeletonPicture
import SkeletonRender
import Testing

@Suite("Picture errors")
struct PictureErrorTests {
    static let valid = PNGBytes.rgb(width: 20, height: 10) { x, y in UInt32(x * 12 + y) }

    /// The error loading `bytes` from a file gives, checked to name the file.
    static func error(_ bytes: [UInt8]?, maxPixels: Int = 64 * 1024 * 1024) -> String {
        let directory = TemporaryDirectory("picture-error")
        defer { directory.remove() }
        let path = bytes.map { directory.write("logo.png", $0) } ?? directory.path + "/logo.png"
        do {
            _ = try PictureLoader(maxPixels: maxPixels).load(.file(path))
            return "decoded"
        } catch {
            #expect(error.file == path && error.description.hasPrefix("cannot load picture \(path): "), "\(error)")
            return error.reason
        }
    }

    @Test func missing() { #expect(Self.error(nil) == "no such file") }

    @Test func notAPNG() { #expect(Self.error(Array("GIF89a, not a PNG at all".utf8)) == "not a PNG (no PNG signature)") }

    @Test func truncated() {
        let idat = PNGBytes.chunkOffset("IDAT", in: Self.valid)!
        for length in [idat + 20, Self.valid.count - 12, Self.valid.count - 1] {
            let reason = Self.error(Array(Self.valid.prefix(length)))
            #expect(reason.hasPrefix("truncated"), "\(length) bytes: \(reason)")
        }
    }

    @Test func badCRC() {
        var bytes = Self.valid
        bytes[PNGBytes.chunkOffset("IDAT", in: bytes)! + 8 + 30] ^= 0x10
        #expect(Self.error(bytes) == "IDAT: CRC error")
    }

    @Test func overThePixelLimitWithTheLimit() {
        #expect(Self.error(Self.valid, maxPixels: 199) == "20x10 is 200 pixels, over the limit of 199")
        #expect(Self.error(Self.valid, maxPixels: 200) == "decoded")
    }
}

/// Image data beyond what the rows need is refused before it is inflated.
@Suite struct PictureDataLimitTests {
    @Test func dataAfterTheLastRowIsRefused() {
        let valid = PNGBytes.rgb(width: 16, height: 16) { x, y in UInt32(x * 16 + y) }
        let iend = PNGBytes.chunkOffset("IEND", in: valid)!
        // A second IDAT of 64 KiB: zlib would go on inflating it after the 16 rows.
        let extra = PNGBytes.chunkBytes("IDAT", [UInt8](repeating: 0, count: 65536))
        let padded = Array(valid[..<iend]) + extra + Array(valid[iend...])
        let reason = PictureErrorTests.error(padded)
        #expect(reason.hasPrefix("its image data is more than the"), "\(reason)")
        #expect(PictureErrorTests.error(valid) == "decoded")
    }
}
