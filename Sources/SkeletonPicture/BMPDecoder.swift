import SkeletonRender

/// The BMPs that firmware hands over in the ACPI BGRT table, to opaque ARGB8888: 24 or 32 bits
/// per pixel, uncompressed (`BI_RGB`) or with colour masks (`BI_BITFIELDS`), rows bottom-up
/// (positive height) or top-down (negative), each padded to 4 bytes; any info header of 40 bytes
/// or more. The firmware blits the logo without blending, so a 32-bit BMP's fourth byte (often 0)
/// is not alpha: every pixel is opaque. Palettes, RLE and 16-bit pixels are refused.
enum BMPDecoder {
    private static let fileHeaderSize = 14
    private static let compressionRGB: UInt32 = 0
    private static let compressionBitfields: UInt32 = 3

    static func decode(_ bytes: [UInt8], maxPixels: Int) -> Result<PixelBuffer, PictureDecodingFailure> {
        bytes.withUnsafeBytes { decode($0, maxPixels: maxPixels) }
    }

    private static func decode(_ data: UnsafeRawBufferPointer, maxPixels: Int) -> Result<PixelBuffer, PictureDecodingFailure> {
        guard data.count >= 2, data[0] == 0x42, data[1] == 0x4D else { return .failure(PictureDecodingFailure("not a BMP (no BM signature)")) }
        guard data.count >= fileHeaderSize + 40 else { return .failure(PictureDecodingFailure("truncated: the BMP header is incomplete")) }
        let dataOffset = Int(uint32(data, 10)), infoSize = Int(uint32(data, 14))
        let width = Int(Int32(bitPattern: uint32(data, 18))), signedHeight = Int(Int32(bitPattern: uint32(data, 22)))
        let bitsPerPixel = Int(uint16(data, 28)), compression = uint32(data, 30)
        guard infoSize >= 40 else { return .failure(PictureDecodingFailure("a BMP info header of \(infoSize) bytes (OS/2 BMPs are not read)")) }
        guard width > 0, signedHeight != 0, signedHeight != Int(Int32.min) else {
            return .failure(PictureDecodingFailure("a BMP of \(width)x\(signedHeight) pixels"))
        }
        let height = abs(signedHeight)
        guard bitsPerPixel == 24 || bitsPerPixel == 32 else {
            return .failure(PictureDecodingFailure("a BMP of \(bitsPerPixel) bits per pixel (only 24 and 32 are read)"))
        }
        let masks: ColourMasks
        switch compression {
        case compressionRGB:
            masks = ColourMasks.standard
        case compressionBitfields where bitsPerPixel == 32:
            guard data.count >= fileHeaderSize + 40 + 12 else { return .failure(PictureDecodingFailure("truncated: the BMP colour masks are missing")) }
            guard let given = ColourMasks(red: uint32(data, 54), green: uint32(data, 58), blue: uint32(data, 62)) else {
                return .failure(PictureDecodingFailure("BMP colour masks that are not runs of at most 8 bits"))
            }
            masks = given
        default:
            return .failure(PictureDecodingFailure("a BMP with compression \(compression) (only BI_RGB and 32-bit BI_BITFIELDS are read)"))
        }
        if let failure = PictureDecodingFailure.overLimit(width: width, height: height, maxPixels: maxPixels) { return .failure(failure) }
        let rowBytes = (width * bitsPerPixel + 31) / 32 * 4
        guard dataOffset >= fileHeaderSize + 40, dataOffset <= data.count, (data.count - dataOffset) / rowBytes >= height else {
            return .failure(PictureDecodingFailure("truncated: \(width)x\(height) pixels need \(rowBytes * height) bytes from offset \(dataOffset), the file has \(data.count) bytes"))
        }
        let image = PixelBuffer(width: width, height: height)
        let canvas = image.canvas
        let base = data.baseAddress! + dataOffset
        for y in 0..<height {
            let source = base + (signedHeight > 0 ? height - 1 - y : y) * rowBytes
            let target = canvas.row(y)
            if bitsPerPixel == 24 {
                for x in 0..<width {
                    let p = source + 3 * x
                    target[x] = 0xFF00_0000 | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
                        | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8 | UInt32(p.load(as: UInt8.self))
                }
            } else if masks == ColourMasks.standard {
                for x in 0..<width { target[x] = 0xFF00_0000 | source.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self).littleEndian }
            } else {
                for x in 0..<width { target[x] = masks.argb(source.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self).littleEndian) }
            }
        }
        return .success(image)
    }

    private static func uint16(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        UInt16(data[offset]) | UInt16(data[offset + 1]) << 8
    }

    private static func uint32(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(data[offset]) | UInt32(data[offset + 1]) << 8 | UInt32(data[offset + 2]) << 16 | UInt32(data[offset + 3]) << 24
    }
}
