#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An errno value with its text, thrown by the system-call wrappers.
public struct Errno: Error, Sendable, Equatable, CustomStringConvertible {
    public var rawValue: Int32
    /// The call that failed, for the message.
    public var call: String

    public init(_ rawValue: Int32, call: String) {
        self.rawValue = rawValue
        self.call = call
    }

    public static func current(_ call: String) -> Errno { Errno(errno, call: call) }

    public var text: String { String(cString: strerror(rawValue)) }
    public var description: String { "\(call): \(text)" }
}
