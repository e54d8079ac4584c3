/// PNG files for the picture tests, built chunk by chunk: 8-bit, non-interlaced, image data in
/// zlib "stored" blocks (no compressor needed).
enum PNGBytes {
    /// A whole PNG of `colorType` (2: RGB, 4: grey and alpha, 6: RGBA) from rows of samples.
    static func file(width: Int, height: Int, colorType: UInt8, rows: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, colorType, 0, 0, 0])
        bytes += chunk("IDAT", storedZlib(rows.flatMap { [0] + $0 }))
        bytes += chunk("IEND", [])
        return bytes
    }

    /// An opaque RGB PNG of `width` x `height` pixels of `color(x, y)` (0xRRGGBB).
    static func rgb(width: Int, height: Int, _ color: (Int, Int) -> UInt32) -> [UInt8] {
        let rows = (0..<height).map { y in
            (0..<width).flatMap { x -> [UInt8] in
                let c = color(x, y)
                return [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
            }
        }
        return file(width: width, height: height, colorType: 2, rows: rows)
    }

    /// Offset of the first byte of the chunk of type `type` (its length field).
    static func chunkOffset(_ type: String, in bytes: [UInt8]) -> Int? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(bytes[offset + 4..<offset + 8]) == Array(type.utf8) { return offset }
            offset += 12 + length
        }
        return nil
    }

    /// One chunk, with its length and CRC.
    static func chunkBytes(_ type: String, _ data: [UInt8]) -> [UInt8] { chunk(type, data) }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// zlib of stored blocks of at most 65535 bytes, with the Adler-32 at the end.
    private static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 0xFFFF, data.count), length = UInt16(end - start)
            out += [end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
