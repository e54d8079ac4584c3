import SkeletonSettings
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// The commands of the control protocol and the replies that wait for a transition.
extension Daemon {
    /// A command carried out: the reply, and the state it waits for when it waits for one.
    struct Performed {
        var reply: Reply
        var awaiting: SessionState?
    }

    /// Carries out `command` now, or queues it behind a layout being read and the commands queued
    /// before it (`Daemon+WaitingCommands.swift`): nil then, and when it runs its reply goes to
    /// the place kept in `client`'s replies. The one door of the socket's, Plymouth's, psplash's
    /// and SIGHUP's commands.
    func performInTurn(_ command: Command, id: JSONValue?, uid: UInt32?, client: ClientConnection?) -> Performed? {
        guard mustWait(command) else { return perform(command, id: id, uid: uid) }
        backlog.commands.append(WaitingCommand(command: command, id: id, uid: uid, client: client.map { ($0, $0.reserve()) }))
        return nil
    }

    /// A request from the control socket: carried out, answered now or once its wait is over;
    /// or, behind a layout being read, queued with its reply's place kept.
    func execute(_ request: Request, from client: ClientConnection) {
        guard let done = performInTurn(request.command, id: request.id, uid: client.uid, client: client) else { return }
        deliver(done, id: request.id, to: client, ticket: nil)
    }

    /// Answers a client's command (in the place `ticket` kept, if any), now or once the state
    /// it waits for is reached.
    func deliver(_ done: Performed, id: JSONValue?, to client: ClientConnection, ticket: Int?) {
        if let until = done.awaiting {
            backlog.replies.append(AwaitedReply(client: client, ticket: ticket ?? client.reserve(), id: id, until: until, afterFrame: pacer.framesDrawn))
            resolveWaiters()
        } else if let ticket {
            client.fulfil(ticket, with: done.reply)
        } else {
            client.reply(done.reply)
        }
        // The daemon stops after this turn (quit, new-root handing back): the reply goes out first.
        if !loop.running { _ = client.writePending() }
    }

    /// A request of Plymouth's clients, through its adapter.
    /// nil: answered later, with `ticket` (a password or a question, once typed).
    func answer(_ request: PlymouthRequest, ticket: PlymouthTicket) -> PlymouthReply? {
        guard var adapter = inlets.plymouthAdapter else { return .nak }
        let action = adapter.action(for: request)
        inlets.plymouthAdapter = adapter
        switch action {
        case .answer(let reply): return reply
        case .askScreen(let answer):
            return answer(ScreenFacts(state: screen.session.state, hasDisplay: host.display != nil))
        case .prompt(let prompt):
            return askPlymouth(prompt, ticket: ticket)
        case .watchKeystroke(let keys):
            return watchKeystroke(keys, ticket: ticket)
        case .ignoreKeystroke(let keys):
            carryOut(screen.changeQuestions { $0.ignoreKeystroke(keys) })
            return .ack
        case .command(let command, let answer):
            // Queued behind a layout being read: acknowledged now, carried out in its turn.
            return answer(performInTurn(command, id: nil, uid: 0, client: nil)?.reply ?? .ok(id: nil, [:]))
        }
    }

    /// A line of psplash's FIFO, through its adapter.
    func performPsplash(_ line: PsplashCommand) {
        if line == .quit { logger.info("psplash: QUIT") }
        _ = performInTurn(PsplashAdapter.command(for: line), id: nil, uid: nil, client: nil)
    }

    /// Carries out one command, whoever sent it (the control socket, Plymouth's and psplash's
    /// adapters). `uid`: the sender's user, when known.
    func perform(_ command: Command, id: JSONValue?, uid: UInt32?) -> Performed {
        let now = clock.now
        func reply(_ fields: [String: JSONValue]) -> Performed { Performed(reply: .ok(id: id, fields)) }
        func refuse(_ error: ProtocolError) -> Performed { Performed(reply: .error(id: id, error)) }
        switch command {
        case .ping:
            return reply(["pong": true])
        case .status:
            return reply(statusReply(now: now).fields)
        case .tree:
            guard let look = screen.session.lookInForce else { return refuse(ProtocolError(.notShowing, "nothing is shown: show a layout first")) }
            return reply(["tree": treeJSON(look)])
        case .reload:
            let problems = reload()
            if problems.isEmpty { return reply(["reloaded": true]) }
            return refuse(ProtocolError(.reloadFailed, problems.joined(separator: "; ") + " (the previous version stays in force)"))
        case .quit:
            if let goingDown = screen.goingDown { return refuse(goingDown.refusal("quit")) }
            loop.running = false
            return reply(["quitting": true])
        case .newRoot(let root):
            return Performed(reply: newRootReply(root, id: id, uid: uid))
        case .show, .update, .hide, .deactivate, .reactivate, .shutdown:
            return performOnScreen(command, id: id, now: now)
        }
    }

    /// A command that changes what the screen shows: the value's transition, its effects carried
    /// out, then the answer (whether a named output's monitor is connected is the display's to say).
    private func performOnScreen(_ command: Command, id: JSONValue?, now: Double) -> Performed {
        let (answer, effects) = screen.perform(command, in: commandWorld, now: now)
        carryOut(effects)
        switch answer.result {
        case .success(var fields):
            if let output = answer.output {
                fields["output"] = .string(output)
                fields["connected"] = .bool(host.compositors.contains { $0.output.name == output })
            }
            return Performed(reply: .ok(id: id, fields), awaiting: answer.awaiting)
        case .failure(let error):
            return Performed(reply: .error(id: id, error))
        }
    }

    /// What the screen's commands look up: the layouts read, the settings, the display's hand-over
    /// to an app, the text console.
    private var commandWorld: CommandWorld {
        let console = host.console
        return CommandWorld(layout: store.load, startLayout: settings.startLayout, shutdown: settings.shutdown,
                            deactivated: host.deactivated, consoleToWaitOn: { console.cellsToWaitOn })
    }

    /// The settings' `display.layouts`, loaded; one that cannot be loaded is reported and its
    /// output shows the main layout.
    func settingsOutputLayouts() -> [String: OutputLayouts.Assigned] {
        var loaded: [String: OutputLayouts.Assigned] = [:]
        for (output, reference) in settings.outputLayouts.sorted(by: { $0.key < $1.key }) {
            switch store.load(reference) {
            case .success(let l): loaded[output] = OutputLayouts.Assigned(name: l.name, layout: l.layout)
            case .failure(let error):
                logger.error("display.layouts.\(output): \(error.message); \(output) shows the main layout")
            }
        }
        return loaded
    }

    func resolveWaiters() {
        guard !backlog.replies.isEmpty else { return }
        let transitioning = screen.session.isTransitioning
        var remaining: [AwaitedReply] = []
        for w in backlog.replies where !w.client.isClosed {
            var reached = screen.session.state == w.until && !transitioning
            var problem: String?
            if reached && w.until == .showing && host.display != nil {
                // A display that cannot show it (handed over, master lost) answers at once.
                problem = host.unshowableReason
                reached = problem != nil || (pacer.framesDrawn > w.afterFrame && !screen.needsDraw && host.allOutputsCanPresent)
            }
            let superseded = (w.until == .showing && (screen.session.state == .idle || screen.session.state == .hiding))
                || (w.until == .idle && screen.session.state == .showing)
            if reached || superseded {
                var fields: [String: JSONValue] = ["state": .string(screen.session.state.rawValue)]
                fields[w.until == .showing ? "shown" : "hidden"] = .bool(reached && problem == nil)
                if let problem { fields["problem"] = .string(problem) }
                w.client.fulfil(w.ticket, with: .ok(id: w.id, fields))
                inlets.server?.flush(w.client)
            } else {
                remaining.append(w)
            }
        }
        backlog.replies = remaining
    }

    /// Re-reads settings and layouts; broken files are reported and the old versions stay.
    func reload() -> [String] {
        var problems: [String] = []
        switch config.source.load() {
        case .success(let s):
            if s.socketPath != settings.socketPath { problems.append("the socket path changes only on restart") }
            var updated = s
            updated.socketPath = settings.socketPath
            config.settings = updated
            host.settings = updated
            pacer.maxFPS = updated.maxFPS
            logger.level = s.logLevel
        case .failure(let e):
            problems += e.lines
        }
        problems += store.reload(directory: settings.layoutsDirectory)
        screen.applySettingsLayouts(settingsOutputLayouts(), now: clock.now)
        if let look = screen.session.lookInForce, look.layoutName != LayoutStore.builtin.name,
           case .success(let fresh) = store.load(look.layoutName), fresh.layout != look.layout {
            var updatedLook = look
            updatedLook.layout = fresh.layout
            screen.update(updatedLook, transition: updatedLook.presentation.transition, now: clock.now)
            screen.needsDraw = true
        }
        for p in problems { logger.error("reload: \(p)") }
        return problems
    }
}
