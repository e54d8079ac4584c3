/// A zlib stream of nothing but zero bytes, written by hand so that gigabytes cost a few
/// megabytes and no compressor runs: one dynamic-Huffman block whose codes are a literal 0 (2
/// bits), a match of 258 at distance 1 (1 bit for the length, 1 for the distance) and the end
/// (2 bits). zlib's own best ratio, about 1032 to 1.
enum ZeroDeflate {
    /// `count` zero bytes (at least 1) as a zlib stream, its Adler-32 included.
    static func zlib(zeros count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // the last block
        bits.write(2, count: 2)  // dynamic Huffman codes
        bits.write(29, count: 5)  // 286 literal/length codes
        bits.write(0, count: 5)  // 1 distance code
        bits.write(14, count: 4)  // 18 code length codes
        // Their lengths, in the format's order 16 17 18 0 8 7 9 6 10 5 11 4 12 3 13 2 14 1:
        // 18 (a run of zeros) 1 bit, 2 and 1 2 bits each.
        for length in [0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2] { bits.write(UInt32(length), count: 3) }
        // The code length codes: 18 is 0, 1 is 10, 2 is 11 (canonical, written first bit first).
        let one = (code: UInt32(0b10), length: 2), two = (code: UInt32(0b11), length: 2), zeroRun = (code: UInt32(0), length: 1)
        func zeros(_ n: Int) {
            bits.writeCode(zeroRun.code, length: zeroRun.length)
            bits.write(UInt32(n - 11), count: 7)
        }
        bits.writeCode(two.code, length: two.length)  // literal 0: 2 bits
        zeros(138); zeros(117)  // literals 1 to 255: none
        bits.writeCode(two.code, length: two.length)  // 256, the end: 2 bits
        zeros(28)  // 257 to 284: none
        bits.writeCode(one.code, length: one.length)  // 285, a match of 258: 1 bit
        bits.writeCode(one.code, length: one.length)  // distance code 0, distance 1: 1 bit
        // The data: literal 0 is 10, 285 is 0, distance 0 is 0, the end is 11.
        let matches = (count - 1) / 258, literals = (count - 1) % 258
        bits.writeCode(0b10, length: 2)
        bits.writeZeroBits(2 * matches)
        for _ in 0..<literals { bits.writeCode(0b10, length: 2) }
        bits.writeCode(0b11, length: 2)
        // Adler-32 of zeros: a stays 1, b adds 1 per byte.
        let adler = UInt32(count % 65521) << 16 | 1
        return [0x78, 0x01] + bits.bytes + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }
}
