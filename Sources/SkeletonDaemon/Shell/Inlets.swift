import SkeletonSystem

/// The rooms the daemon hears from: the control socket, Plymouth's socket, psplash's FIFO and
/// systemd's password questions. Each turns its bytes into commands or questions for the daemon;
/// here they are only gathered, so the loop waits on them, serves them and closes them as one.
final class Inlets {
    /// The control connections' transport when a test gives one (memory); else the socket.
    let givenTransport: (any ControlTransport)?
    var server: ControlServer?
    /// Plymouth's socket, when the settings ask for it, and its requests as commands.
    var plymouth: PlymouthServer?
    var plymouthAdapter: PlymouthAdapter?
    /// psplash's FIFO, when the settings ask for it.
    var psplash: PsplashFIFO?
    /// systemd's password questions, read as an agent does (`prompts.agent`).
    var agent: PasswordAgent?

    init(transport: (any ControlTransport)?) {
        givenTransport = transport
    }

    func addWatches(to list: inout [Watch]) {
        server?.addWatches(to: &list)
        plymouth?.addWatches(to: &list)
        psplash?.addWatches(to: &list)
        agent?.addWatches(to: &list)
    }

    /// Serves `fd` when it is one of the sockets' or the FIFO's; false when it is none.
    func handle(_ fd: FileDescriptor, _ events: PollEvents) -> Bool {
        server?.handle(fd, events) == true || plymouth?.handle(fd, events) == true || psplash?.handle(fd) == true
    }

    /// Lines, requests and commands read but not run yet are waiting for their turn.
    var haveQueued: Bool {
        server?.hasRunnableLines == true || plymouth?.hasQueuedRequests == true || psplash?.hasQueuedCommands == true
    }

    /// Runs what was read and waits for its turn.
    func runQueued() {
        server?.runQueuedLines()
        plymouth?.runQueuedRequests()
        psplash?.runQueuedCommands()
    }

    func close() {
        server?.close()
        plymouth?.close()
        psplash?.close()
        agent?.close()
    }
}
