/// Cuts the bytes a Plymouth client sends into requests, however they arrive: a request may
/// come in pieces, or several in one read. Never holds more than one request's bytes (at most
/// 258) beyond what it was given. An argument that does not end in its NUL where its size says
/// is a request of the wrong length: the stream cannot be cut after it, so the framer stops
/// (`isBroken`) and the connection is to be closed.
public struct PlymouthFramer: Sendable {
    private var pending: [UInt8] = []
    /// A request's declared size did not match its argument; nothing more is cut.
    public private(set) var isBroken = false

    public init() {}

    public mutating func append(_ bytes: some Collection<UInt8>) { pending.append(contentsOf: bytes) }

    /// The next whole request, or nil until more bytes come.
    public mutating func next() -> PlymouthRequest? {
        guard !isBroken, pending.count >= 2 else { return nil }
        let command = PlymouthRequest.Command(byte: pending[0])
        // As plymouthd reads it: only `\2` announces an argument.
        guard pending[1] == 2 else {
            pending.removeFirst(2)
            return PlymouthRequest(command: command)
        }
        guard pending.count >= 3 else { return nil }
        let size = Int(pending[2])
        guard pending.count >= 3 + size else { return nil }
        let body = pending[3..<(3 + size)]
        guard body.last == 0 else {
            isBroken = true
            return nil
        }
        let argument = Array(body.prefix { $0 != 0 })
        pending.removeFirst(3 + size)
        return PlymouthRequest(command: command, argument: argument)
    }

    /// Bytes received that do not make a whole request yet.
    public var bufferedCount: Int { pending.count }
}
