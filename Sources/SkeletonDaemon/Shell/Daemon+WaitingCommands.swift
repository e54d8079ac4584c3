import SkeletonLayout
import SkeletonProtocol
import SkeletonSettings
import SkeletonSystem

/// Commands that name a layout not loaded yet wait while its file is read and checked off the
/// loop (a layout of 16,384 nodes takes 80 to 90 ms), and every command with an effect that
/// comes after them waits behind them, whoever sent it, so that they take effect in the order
/// they came. Commands that only read (`ping`, `status`, `tree`) are answered at once.
extension Daemon {
    /// Commands waiting at most; past it, control clients are not read until some have run.
    static let waitingLimit = 256
    /// Commands run from the queue in one turn at most.
    static let waitingPerTurn = 32
    /// Seconds a layout file may take to be read and checked off the loop.
    static let layoutDeadline = 10.0

    /// The layouts a command names.
    static func layoutReferences(of command: Command) -> [String] {
        switch command {
        case .show(let show): return show.layout.map { [$0] } ?? []
        case .update(let update): return update.layout.map { [$0] } ?? []
        default: return []
        }
    }

    /// Whether `command` has to wait (commands wait before it, or a layout it names is being
    /// read); the reading of what it names is started either way. A reload always waits for the
    /// kept layouts' files to be read again.
    func mustWait(_ command: Command) -> Bool {
        switch command {
        case .ping, .status, .tree: return false
        case .reload:
            startRereading()
            return true
        default: break
        }
        let reading = startReading(for: command)
        return reading || !backlog.commands.isEmpty
    }

    /// Starts reading the files of the layouts `command` names that are not loaded; true when
    /// one of them is being read.
    private func startReading(for command: Command) -> Bool {
        var reading = false
        for reference in Self.layoutReferences(of: command) {
            if let path = store.fileToLoad(reference) {
                let read = store.loader(for: reference, path: path)
                let receiver = Receiver(daemon: self)
                offLoop.work.submit(deadline: Self.layoutDeadline, { _ in
                    let result = read()
                    return Delivery { receiver.daemon?.store.loaded(path: path, result) }
                }, expired: { [weak self] in
                    self?.store.loaded(path: path, .failure(ProtocolError(.invalidLayout,
                        "\(path): not read and checked within \(Int(Self.layoutDeadline)) s")))
                })
                reading = true
            } else if store.isLoading(reference) {
                reading = true
            }
        }
        return reading
    }

    /// Reads the kept layouts' files again off the loop, unless that is under way.
    private func startRereading() {
        guard !store.isRereading else { return }
        let read = store.rereader()
        let receiver = Receiver(daemon: self)
        offLoop.work.submit(deadline: Self.layoutDeadline, { _ in
            let results = read()
            return Delivery { receiver.daemon?.store.rereadDone(results) }
        }, expired: { [weak self] in self?.store.rereadDone(nil) })
    }

    /// A reload from SIGHUP: in its turn, like the socket's.
    func reloadInTurn() {
        _ = performInTurn(.reload, id: nil, uid: nil, client: nil)
    }

    /// Lets a job's delivery reach the daemon, which only the loop touches.
    private struct Receiver: @unchecked Sendable {
        weak var daemon: Daemon?
    }

    /// The first waiting command may run: no layout it names is being read (for a reload: the
    /// kept ones have been read again).
    var waitingCommandIsReady: Bool {
        guard let first = backlog.commands.first else { return false }
        if case .reload = first.command { return !store.isRereading }
        return !Self.layoutReferences(of: first.command).contains(where: store.isLoading)
    }

    /// Runs the waiting commands whose layouts are ready, in order, at most `waitingPerTurn`.
    func runWaitingCommands() {
        var count = 0
        while count < Self.waitingPerTurn, waitingCommandIsReady {
            let next = backlog.commands.removeFirst()
            count += 1
            if let (client, ticket) = next.client {
                guard !client.isClosed else { continue }
                deliver(perform(next.command, id: next.id, uid: next.uid), id: next.id, to: client, ticket: ticket)
            } else {
                _ = perform(next.command, id: next.id, uid: next.uid)
            }
        }
        inlets.server?.paused = backlog.commands.count >= Self.waitingLimit
    }

    /// Answers the control clients whose commands still wait: the daemon stops.
    func dropWaitingCommands() {
        for entry in backlog.commands {
            guard let (client, ticket) = entry.client, !client.isClosed else { continue }
            client.fulfil(ticket, with: .error(id: entry.id, ProtocolError(.internalError, "the daemon stopped before this command's turn")))
        }
        backlog.commands = []
    }
}
