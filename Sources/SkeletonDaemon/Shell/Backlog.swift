import SkeletonLayout
import SkeletonProtocol

/// What the daemon owes: commands waiting their turn behind a layout being read
/// (`Daemon+WaitingCommands.swift`), and replies that wait for the screen to reach a state
/// (`show --wait`, `hide --wait`).
struct Backlog {
    var commands: [WaitingCommand] = []
    var replies: [AwaitedReply] = []
}

/// A command waiting its turn, and who is owed its reply.
struct WaitingCommand {
    var command: Command
    var id: JSONValue?
    var uid: UInt32?
    /// A control client and its reply's place; nil for Plymouth's and psplash's commands,
    /// which were acknowledged when they came.
    var client: (connection: ClientConnection, ticket: Int)?
}

/// A reply owed once the session reaches a state (`show --wait`, `hide --wait`).
struct AwaitedReply {
    var client: ClientConnection
    var ticket: Int
    var id: JSONValue?
    var until: SessionState
    /// A show is answered only once a frame drawn after it is on screen.
    var afterFrame: Int
}
