/// plymouthd's replies: ACK, NAK, an answer (a little-endian UInt32 size and the text) and
/// "no answer" (what a splash that cannot ask for a password gives, so the client asks itself).
public enum PlymouthReply: Equatable, Sendable {
    case ack
    case nak
    case answer(String)
    case noAnswer

    public var bytes: [UInt8] {
        switch self {
        case .ack: return [0x06]
        case .nak: return [0x15]
        case .noAnswer: return [0x05]
        case .answer(let text):
            let utf8 = Array(text.utf8)
            return Self.answerHeader(size: utf8.count) + utf8
        }
    }

    /// An answer's first bytes: ANSWER and the size of the text that follows, little-endian.
    public static func answerHeader(size: Int) -> [UInt8] {
        let n = UInt32(clamping: size)
        return [0x02, UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8(n >> 24)]
    }
}
