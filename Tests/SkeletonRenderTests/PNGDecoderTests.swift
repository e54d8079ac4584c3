import SkeletonPicture
import Testing
import SkeletonDisplay
import SkeletonRender

@Suite("PNG decoder")
struct PNGDecoderTests {
    static func reason(_ bytes: [UInt8], maxPixels: Int = PNGDecoder.defaultMaxPixels) -> String? {
        do {
            _ = try PNGDecoder.decode(bytes, maxPixels: maxPixels)
            return nil
        } catch {
            return error.reason
        }
    }

    static var encodedGradient: [UInt8] {
        let image = PixelBuffer(width: 37, height: 23)
        for y in 0..<23 { for x in 0..<37 { image[x, y] = UInt32(x * 7 & 0xFF) << 16 | UInt32(y * 11 & 0xFF) << 8 | UInt32((x * y) & 0xFF) } }
        return PNGEncoder.encode(image)
    }

    /// Offset of the first byte of the chunk of type `type` (its length field).
    static func chunkOffset(_ type: String, in bytes: [UInt8]) -> Int {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(bytes[offset + 4..<offset + 8]) == Array(type.utf8) { return offset }
            offset += 12 + length
        }
        fatalError("no \(type) chunk")
    }

    @Test func hugeHeaderOfThirtyThreeBytesIsRefusedBeforeAllocating() {
        var file = PNGFileBuilder()
        file.header(width: 0xFFFF_0010, height: 12, colorType: 2)
        #expect(file.bytes.count == 33)
        #expect(Self.reason(file.bytes) == "truncated: the file ends before its IEND chunk")
        file.end()
        #expect(Self.reason(file.bytes) == "PNG unsigned integer out of range")
    }

    @Test func sizeOverThePixelLimitIsRefusedWithTheLimit() {
        var file = PNGFileBuilder()
        file.header(width: 16384, height: 16384, colorType: 2)
        file.imageData(rows: [[0, 0, 0]])
        file.end()
        #expect(Self.reason(file.bytes) == "16384x16384 is 268435456 pixels, over the limit of 67108864")
        #expect(Self.reason(Self.encodedGradient, maxPixels: 850) == "37x23 is 851 pixels, over the limit of 850")
        #expect(Self.reason(Self.encodedGradient, maxPixels: 851) == nil)
    }

    /// libpng allocates a chunk's whole length before reading it: this 57-byte file's text
    /// chunk claims 2 GB (found by the png fuzzer, which stopped on the allocation).
    @Test func aChunkClaimingGigabytesIsRefusedBeforeAllocating() {
        var file = PNGFileBuilder()
        file.header(width: 7, height: 4, colorType: 2)
        let bytes = file.bytes + [0x7A, 0x00, 0x00, 0x0C] + Array("tEXtComment".utf8) + [0] + Array("fuzz".utf8) + [0, 0, 0, 0]
        let reason = Self.reason(bytes)
        #expect(reason == "truncated: a chunk claims more bytes than the file has", "\(reason ?? "decoded")")
    }

    @Test func badCRCInTheImageDataIsRefused() {
        var bytes = Self.encodedGradient
        let idat = Self.chunkOffset("IDAT", in: bytes)
        let length = bytes[idat..<idat + 4].reduce(0) { $0 << 8 | Int($1) }
        bytes[idat + 8 + length + 3] ^= 0x01
        #expect(Self.reason(bytes)?.contains("CRC error") == true, "\(Self.reason(bytes) ?? "decoded")")
    }

    @Test func badCRCInAnAncillaryChunkIsRefused() {
        var file = PNGFileBuilder()
        file.header(width: 1, height: 1, colorType: 2)
        file.chunk("tEXt", Array("Comment\u{0}hello".utf8), badCRC: true)
        file.imageData(rows: [[1, 2, 3]])
        file.end()
        #expect(Self.reason(file.bytes)?.contains("CRC error") == true, "\(Self.reason(file.bytes) ?? "decoded")")
    }

    @Test func everyTruncationIsRefused() {
        let bytes = Self.encodedGradient
        for length in 0..<bytes.count {
            #expect(Self.reason(Array(bytes.prefix(length))) != nil, "\(length) of \(bytes.count) bytes decoded")
        }
        #expect(Self.reason(Array(bytes.prefix(bytes.count - 12)))?.contains("truncated") == true, "no IEND")
    }

    @Test func roundTripIsPixelExact() throws {
        let bytes = Self.encodedGradient
        let decoded = try PNGDecoder.decode(bytes)
        #expect(decoded.width == 37 && decoded.height == 23)
        for y in 0..<23 { for x in 0..<37 {
            #expect(decoded[x, y] == UInt32(x * 7 & 0xFF) << 16 | UInt32(y * 11 & 0xFF) << 8 | UInt32((x * y) & 0xFF))
        } }
    }

    @Test func rgbaDropsAlphaAndGrayBecomesRGB() throws {
        var rgba = PNGFileBuilder()
        rgba.header(width: 2, height: 1, colorType: 6)
        rgba.imageData(rows: [[0x10, 0x20, 0x30, 0x00, 0xFF, 0xFE, 0xFD, 0x80]])
        rgba.end()
        #expect(try PNGDecoder.decode(rgba.bytes).pixels == [0x102030, 0xFFFEFD])
        var gray = PNGFileBuilder()
        gray.header(width: 2, height: 1, colorType: 0)
        gray.imageData(rows: [[0x00, 0x7F]])
        gray.end()
        #expect(try PNGDecoder.decode(gray.bytes).pixels == [0x000000, 0x7F7F7F])
    }

    @Test func notAPNG() {
        #expect(Self.reason(Array("not a png at all".utf8)) == "not a PNG (no PNG signature)")
        #expect(Self.reason([]) == "not a PNG (no PNG signature)")
    }
}
