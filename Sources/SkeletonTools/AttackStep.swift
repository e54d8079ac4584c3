/// One step of an attack's hostile input, carried out by the attack loop without blocking;
/// the steps run in turn, each once the one before is done.
enum AttackStep {
    /// Where a step writes or waits for replies.
    enum Target { case control, plymouth, fifo }

    /// These bytes, done once the peer took them all.
    case write(Target, [UInt8])
    /// `line` again and again, as fast as the peer takes it, for `seconds`.
    case keepWriting(Target, line: [UInt8], seconds: Double)
    /// Done once `count` lines came back on the target since it opened.
    case awaitLines(Target, count: Int)
    /// Done once `count` bytes came back on the target since it opened.
    case awaitBytes(Target, count: Int)
    /// Nothing more, for `seconds` (the daemon goes on drawing what it was given).
    case soak(seconds: Double)

    var target: Target? {
        switch self {
        case .write(let t, _), .keepWriting(let t, _, _), .awaitLines(let t, _), .awaitBytes(let t, _): t
        case .soak: nil
        }
    }
}
