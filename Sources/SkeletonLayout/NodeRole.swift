/// What a node is for, so that commands and splash protocols (Plymouth's, psplash's) can reach
/// it without knowing its id.
public enum NodeRole: String, Sendable, CaseIterable {
    /// A label that shows status messages.
    case message
    /// The progress bar.
    case progress
    /// A view where the boot's questions (a disk's passphrase) are drawn, instead of a panel
    /// over the dimmed screen.
    case prompt

    /// The node kind a role is given to.
    public var kind: NodeKind {
        switch self {
        case .message: return .label
        case .progress: return .progress
        case .prompt: return .view
        }
    }
}
