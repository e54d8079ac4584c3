#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The poll(2) event bits asked for and reported.
public struct PollEvents: OptionSet, Sendable, Hashable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}
