/// BMP files as firmware writes them for BGRT: a 14-byte file header, a 40-byte info header
/// (and three colour masks for `BI_BITFIELDS`), rows padded to 4 bytes.
enum BMPBytes {
    /// `pixels` (top row first, 0xRRGGBB) as a 24-bit BI_RGB BMP stored bottom-up.
    static func bottomUp24(width: Int, height: Int, pixels: [UInt32]) -> [UInt8] {
        let rowBytes = (width * 3 + 3) / 4 * 4
        var data: [UInt8] = []
        for y in (0..<height).reversed() {
            var row: [UInt8] = []
            for x in 0..<width {
                let p = pixels[y * width + x]
                row += [UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF)]
            }
            data += row + [UInt8](repeating: 0xEE, count: rowBytes - row.count)
        }
        return file(width: width, height: height, bitsPerPixel: 24, compression: 0, masks: [], data: data)
    }

    /// `words` (top row first, each written little-endian) as a 32-bit BMP stored top-down
    /// (negative height), BI_BITFIELDS when `masks` (red, green, blue) are given.
    static func topDown32(width: Int, height: Int, words: [UInt32], masks: [UInt32] = []) -> [UInt8] {
        let data = words.flatMap { littleEndian32($0) }
        return file(width: width, height: -height, bitsPerPixel: 32, compression: masks.isEmpty ? 0 : 3, masks: masks, data: data)
    }

    static func file(width: Int, height: Int, bitsPerPixel: UInt16, compression: UInt32, masks: [UInt32], data: [UInt8]) -> [UInt8] {
        let offset = 14 + 40 + 4 * masks.count
        var bytes: [UInt8] = [0x42, 0x4D] + littleEndian32(UInt32(offset + data.count)) + [0, 0, 0, 0] + littleEndian32(UInt32(offset))
        bytes += littleEndian32(40) + littleEndian32(UInt32(bitPattern: Int32(width))) + littleEndian32(UInt32(bitPattern: Int32(height)))
        bytes += [1, 0, UInt8(bitsPerPixel), 0] + littleEndian32(compression) + littleEndian32(UInt32(data.count))
        bytes += littleEndian32(2835) + littleEndian32(2835) + littleEndian32(0) + littleEndian32(0)
        return bytes + masks.flatMap { littleEndian32($0) } + data
    }

    private static func littleEndian32(_ v: UInt32) -> [UInt8] {
        [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
    }
}
