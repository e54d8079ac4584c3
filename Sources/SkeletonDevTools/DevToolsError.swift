/// Why a DevTools call failed: the browser's error reply, no reply in time, or the pipe closed
/// (the browser exited). The text says which call and why.
public struct DevToolsError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The browser answered with an error, or could not be started.
        case failed
        /// No answer within the call's timeout.
        case noAnswer
        /// The browser closed its end of the pipe: it exited.
        case closed
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
