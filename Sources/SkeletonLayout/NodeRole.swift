/// What a node is for, so that commands and splash protocols (Plymouth's, psplash's) can reach
/// it without knowing its id.
public enum NodeRole: String, Sendable, CaseIterable {
    /// A label that shows status messages.
    case message
    /// The progress bar.
    case progress
}
