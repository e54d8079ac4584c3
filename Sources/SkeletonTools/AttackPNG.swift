/// The hostile pictures: PNGs of one colour (an 8-bit palette of one entry, every pixel index 0,
/// so the image data is nothing but zeros and compresses to almost nothing).
enum AttackPNG {
    /// A `width` x `height` picture of `color` (0xRRGGBB). With `inflatedBytes` larger than the
    /// image's data, its IDAT inflates to that many zeros: data after the last row.
    static func file(width: Int, height: Int, color: UInt32, inflatedBytes: Int? = nil) -> [UInt8] {
        let dataBytes = height * (1 + width)
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 3, 0, 0, 0])
        bytes += chunk("PLTE", [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)])
        bytes += chunk("IDAT", ZeroDeflate.zlib(zeros: max(dataBytes, inflatedBytes ?? 0)))
        bytes += chunk("IEND", [])
        return bytes
    }

    /// One chunk: length, type, data, CRC-32 of type and data.
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        data.withUnsafeBufferPointer { buffer in
            for byte in buffer { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return ~crc
    }
}
