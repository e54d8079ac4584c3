import SkeletonSystem

/// What is typed at a prompt, kept in memory of its own (never a `String`, which may be copied
/// where it cannot be wiped): UTF-8 bytes and each character's length, zeroed with
/// explicit_bzero when cleared, when characters are taken back and when the buffer goes.
/// It holds at most `capacity` characters; what is typed past that is refused.
public final class SecretBuffer {
    public let capacity: Int
    private let bytes: UnsafeMutableRawBufferPointer
    /// Each character's length in bytes, in order.
    private let lengths: UnsafeMutableBufferPointer<UInt8>
    public private(set) var count = 0
    /// The typed characters' size in UTF-8.
    public private(set) var byteCount = 0

    /// The longest a single typed character may be in UTF-8 (a composed sequence included).
    public static let characterLimit = 32

    public init(capacity: Int = 256) {
        self.capacity = capacity
        bytes = .allocate(byteCount: capacity * 4, alignment: 1)
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        lengths = .allocate(capacity: capacity)
        lengths.initialize(repeating: 0)
    }

    deinit {
        clear()
        bytes.deallocate()
        lengths.deallocate()
    }

    public var isEmpty: Bool { count == 0 }
    /// No character more fits.
    public var isFull: Bool { count >= capacity }

    /// Appends one typed character's UTF-8; false (and nothing taken) when the buffer is full.
    @discardableResult
    public func append(_ character: UnsafeRawBufferPointer) -> Bool {
        guard !character.isEmpty, character.count <= Self.characterLimit else { return true }
        guard count < capacity, byteCount + character.count <= bytes.count else { return false }
        UnsafeMutableRawBufferPointer(rebasing: bytes[byteCount..<(byteCount + character.count)]).copyMemory(from: character)
        byteCount += character.count
        lengths[count] = UInt8(character.count)
        count += 1
        return true
    }

    /// Takes the last character back (Backspace).
    public func removeLast() {
        guard count > 0 else { return }
        count -= 1
        let length = Int(lengths[count])
        lengths[count] = 0
        byteCount -= length
        SystemCalls.zero(UnsafeMutableRawBufferPointer(rebasing: bytes[byteCount..<(byteCount + length)]))
    }

    /// Zeroes everything typed.
    public func clear() {
        SystemCalls.zero(UnsafeMutableRawBufferPointer(rebasing: bytes[0..<byteCount]))
        SystemCalls.zero(UnsafeMutableRawBufferPointer(lengths))
        count = 0
        byteCount = 0
    }

    /// Lends the typed bytes, prefixed by `prefix` (a password agent's "+"), from memory that is
    /// zeroed again when `body` returns.
    public func withBytes<R, E: Error>(prefix: [UInt8] = [], _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: prefix.count + byteCount, alignment: 1)
        defer {
            SystemCalls.zero(scratch)
            scratch.deallocate()
        }
        prefix.withUnsafeBytes { scratch.copyMemory(from: $0) }
        UnsafeMutableRawBufferPointer(rebasing: scratch[prefix.count...]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<byteCount]))
        return try body(UnsafeRawBufferPointer(scratch))
    }

    /// The typed text, for a prompt whose characters may be shown (`Echo=yes`, a question).
    public var visibleText: String { String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<byteCount]), as: UTF8.self) }
}
