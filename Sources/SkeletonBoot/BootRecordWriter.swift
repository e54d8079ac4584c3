/// Writes a boot record's or a boot plan's fields in order (the counterpart of
/// `BootRecordReader`): numbers little-endian, a string of bytes as its UInt32 length and then
/// its bytes.
struct BootRecordWriter {
    private(set) var bytes: [UInt8]

    /// `magic`: what the file begins with; none for a field made of fields.
    init(magic: StaticString = "") {
        bytes = Array(UnsafeBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount))
    }

    mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }

    mutating func uint64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }

    mutating func bytes(_ b: [UInt8]) {
        uint32(UInt32(b.count))
        bytes += b
    }

    mutating func string(_ s: String) { bytes(Array(s.utf8)) }
}
