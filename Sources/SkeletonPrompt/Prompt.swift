/// A question on screen: a password (its characters shown as bullets unless `echo`), a question
/// answered in the clear, or a watch for one keystroke.
public struct Prompt: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case password
        case question
        /// Plymouth's watch-keystroke: any key (nil) or one of these characters ends it.
        case keystroke(keys: String?)
    }

    public var kind: Kind
    public var message: String
    /// The typed characters may be shown.
    public var echo: Bool

    public init(kind: Kind, message: String, echo: Bool = false) {
        self.kind = kind
        self.message = message
        self.echo = echo
    }
}
