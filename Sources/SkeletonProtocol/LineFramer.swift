/// Splits a byte stream into newline-terminated lines of at most `limit` bytes. A longer
/// line is reported once as overlong and the rest of it, up to its newline, is discarded.
public struct LineFramer: Sendable {
    public enum Event: Sendable, Equatable {
        case line([UInt8])
        case overlong
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var discarding = false

    public init(limit: Int = 64 * 1024) { self.limit = limit }

    public mutating func append(_ bytes: some Collection<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                    events.append(.line(buffer))
                }
                buffer.removeAll(keepingCapacity: true)
            } else if !discarding {
                if buffer.count >= limit {
                    events.append(.overlong)
                    buffer.removeAll()
                    discarding = true
                } else {
                    buffer.append(byte)
                }
            }
        }
        return events
    }
}
