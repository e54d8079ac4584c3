/// Bits packed as deflate packs them: each byte filled from its lowest bit.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    /// Bits used in the last byte (0: it is full, or there is none).
    private var used = 0

    /// The `count` low bits of `value`, lowest first (deflate's numbers and extra bits).
    mutating func write(_ value: UInt32, count: Int) {
        for i in 0..<count { append(bit: value >> UInt32(i) & 1) }
    }

    /// A Huffman code of `length` bits, its highest bit first (as deflate writes codes).
    mutating func writeCode(_ code: UInt32, length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { append(bit: code >> UInt32(i) & 1) }
    }

    /// `count` zero bits, whole bytes at a time.
    mutating func writeZeroBits(_ count: Int) {
        var left = count
        while left > 0 && used != 0 { append(bit: 0); left -= 1 }
        bytes.append(contentsOf: repeatElement(0, count: left / 8))
        for _ in 0..<left % 8 { append(bit: 0) }
    }

    private mutating func append(bit: UInt32) {
        if used == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8(bit) << UInt8(used)
        used = (used + 1) % 8
    }
}
