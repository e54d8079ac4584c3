/// A failure that stops the daemon from starting (a display that cannot be opened, a socket that
/// cannot be made), with what to fix.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
