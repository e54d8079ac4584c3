/// An errno value with the call that failed, thrown by the system-call wrappers.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    public var rawValue: Int32
    /// The call that failed, for the message.
    public var call: String

    public init(_ rawValue: Int32, call: String) {
        self.rawValue = rawValue
        self.call = call
    }

    /// The calling thread's errno now (errno(3)).
    public static func current(_ call: String) -> Errno { Errno(SystemCalls.lastErrno, call: call) }

    /// strerror(3).
    public var text: String { SystemCalls.errorText(rawValue) }
    public var description: String { "\(call): \(text)" }

    /// The call would block (EAGAIN, EWOULDBLOCK).
    public var wouldBlock: Bool { SystemCalls.isWouldBlock(rawValue) }

    /// A socket's receive queue overflowed and messages were lost (ENOBUFS).
    public var isOverflow: Bool { SystemCalls.isBufferOverflow(rawValue) }
}
