/// 64-bit FNV-1a: a small, stable hash for cache keys (not for anything adversarial: the
/// cache directory belongs to root).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of one field.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = FNV1a()
        hash.add(bytes)
        return hash.value
    }

    mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    mutating func add(string: StaticString) {
        add(UnsafeRawBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
        // A length after each field keeps ("ab", "c") and ("a", "bc") apart.
        add(UInt32(truncatingIfNeeded: bytes.count))
    }

    mutating func add(_ number: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            value ^= UInt64((number >> UInt32(shift)) & 0xFF)
            value &*= 0x0000_0100_0000_01b3
        }
    }

    /// 16 lowercase hex digits.
    var hex: String {
        String(unsafeUninitializedCapacity: 16) { digits in
            writeHex(into: digits.baseAddress!)
            return 16
        }
    }

    /// `directory`, "/", the 16 hex digits and `suffix`, written in one buffer: the boot record's
    /// path is made on the boot path, where an interpolation of the parts costs about 400
    /// instructions more.
    func path(in directory: String, suffix: String) -> String {
        var directory = directory
        var suffix = suffix
        return directory.withUTF8 { head in
            suffix.withUTF8 { tail in
                let count = head.count + 17 + tail.count
                return String(unsafeUninitializedCapacity: count) { buffer in
                    for i in 0..<head.count { buffer[i] = head[i] }
                    buffer[head.count] = UInt8(ascii: "/")
                    writeHex(into: buffer.baseAddress! + head.count + 1)
                    for i in 0..<tail.count { buffer[head.count + 17 + i] = tail[i] }
                    return count
                }
            }
        }
    }

    private func writeHex(into digits: UnsafeMutablePointer<UInt8>) {
        for i in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * i)) & 0xF
            digits[i] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
    }
}
