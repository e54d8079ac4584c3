/// Builds PNG files chunk by chunk for decoder tests, including broken ones. Image data is
/// stored uncompressed (zlib "stored" blocks), so no compressor is needed.
struct PNGFileBuilder {
    private(set) var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An IHDR chunk: 8-bit, non-interlaced unless told.
    mutating func header(width: UInt32, height: UInt32, colorType: UInt8, depth: UInt8 = 8, interlace: UInt8 = 0) {
        chunk("IHDR", Self.bigEndian(width) + Self.bigEndian(height) + [depth, colorType, 0, 0, interlace])
    }

    /// One IDAT chunk holding `rows` (each row's bytes without the filter byte; filter 0 is added).
    mutating func imageData(rows: [[UInt8]]) {
        chunk("IDAT", Self.storedZlib(rows.flatMap { [0] + $0 }))
    }

    mutating func end() { chunk("IEND", []) }

    /// A chunk with its CRC, or with the CRC off by one when `badCRC`.
    mutating func chunk(_ type: String, _ data: [UInt8], badCRC: Bool = false) {
        let typeBytes = Array(type.utf8)
        bytes += Self.bigEndian(UInt32(data.count)) + typeBytes + data
        bytes += Self.bigEndian(Self.crc32(typeBytes + data) &+ (badCRC ? 1 : 0))
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        precondition(data.count <= 0xFFFF, "one stored block is enough for test images")
        let length = UInt16(data.count)
        var out: [UInt8] = [0x78, 0x01, 1, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        out += data
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
