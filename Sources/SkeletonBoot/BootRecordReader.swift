/// Reads a boot record's fields in order from its bytes, checking every length.
struct BootRecordReader {
    private let data: UnsafeRawBufferPointer
    private var offset = 0

    init(_ data: UnsafeRawBufferPointer) { self.data = data }

    var atEnd: Bool { offset == data.count }

    /// What is left to read.
    var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: data[offset...]) }

    mutating func magic(_ text: StaticString) -> Bool {
        guard let field = take(text.utf8CodeUnitCount) else { return false }
        for i in 0..<field.count where field[i] != text.utf8Start[i] { return false }
        return true
    }

    mutating func uint32() -> UInt32? { take(4).map { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) } }

    mutating func uint64() -> UInt64? { take(8).map { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) } }

    mutating func bytes() -> UnsafeRawBufferPointer? {
        guard let count = uint32() else { return nil }
        return take(Int(count))
    }

    mutating func string() -> String? { bytes().map { String(decoding: $0, as: UTF8.self) } }

    private mutating func take(_ count: Int) -> UnsafeRawBufferPointer? {
        guard count >= 0, count <= data.count - offset else { return nil }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: data[offset..<offset + count])
    }
}
