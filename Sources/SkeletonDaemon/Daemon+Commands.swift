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

    /// A request from the control socket: carried out, answered now or once its wait is over;
    /// or, behind a layout being read, queued with its reply's place kept.
    func execute(_ request: Request, from client: ClientConnection) {
        if mustWait(request.command) {
            waiting.append(WaitingCommand(command: request.command, id: request.id, uid: client.uid,
                                          client: (client, client.reserve())))
            return
        }
        run(request.command, id: request.id, for: client, ticket: nil)
    }

    /// Carries out a client's command and answers it (in the place `ticket` kept, if any).
    func run(_ command: Command, id: JSONValue?, for client: ClientConnection, ticket: Int?) {
        let done = perform(command, id: id, uid: client.uid)
        if let until = done.awaiting {
            waiters.append(Waiter(client: client, ticket: ticket ?? client.reserve(), id: id, until: until, afterFrame: pacer.framesDrawn))
            resolveWaiters()
        } else if let ticket {
            client.fulfil(ticket, with: done.reply)
        } else {
            client.reply(done.reply)
        }
        // The daemon stops after this turn (quit, new-root handing back): the reply goes out first.
        if !running { _ = client.writePending() }
    }

    /// A request of Plymouth's clients, through its adapter.
    /// nil: answered later, with `ticket` (a password or a question, once typed).
    func answer(_ request: PlymouthRequest, ticket: PlymouthTicket) -> PlymouthReply? {
        guard var adapter = plymouthAdapter else { return .nak }
        let action = adapter.action(for: request)
        plymouthAdapter = adapter
        switch action {
        case .answer(let reply): return reply
        case .prompt(let prompt):
            return askPlymouth(prompt, ticket: ticket)
        case .watchKeystroke(let keys):
            return watchKeystroke(keys, ticket: ticket)
        case .ignoreKeystroke(let keys):
            prompts.ignoreKeystroke(keys)
            return .ack
        case .command(let command, let answer):
            guard !mustWait(command) else {
                // Acknowledged now, carried out in its turn.
                waiting.append(WaitingCommand(command: command, id: nil, uid: 0, client: nil))
                return answer(.ok(id: nil, [:]))
            }
            return answer(perform(command, id: nil, uid: 0).reply)
        }
    }

    /// A line of psplash's FIFO, through its adapter.
    func carryOut(_ line: PsplashCommand) {
        if line == .quit { logger.info("psplash: QUIT") }
        let command = PsplashAdapter.command(for: line)
        if mustWait(command) {
            waiting.append(WaitingCommand(command: command, id: nil, uid: nil, client: nil))
        } else {
            _ = perform(command, id: nil, uid: nil)
        }
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
            guard let look = session.lookInForce else { return refuse(ProtocolError(.notShowing, "nothing is shown: show a layout first")) }
            return reply(["tree": treeJSON(look)])
        case .reload:
            let problems = reload()
            if problems.isEmpty { return reply(["reloaded": true]) }
            return refuse(ProtocolError(.reloadFailed, problems.joined(separator: "; ") + " (the previous version stays in force)"))
        case .quit:
            if let goingDown { return refuse(goingDown.refusal("quit")) }
            running = false
            return reply(["quitting": true])
        case .newRoot(let root):
            return Performed(reply: newRootReply(root, id: id, uid: uid))
        case .shutdown(let mode):
            return performShutdown(mode, id: id)
        case .deactivate:
            if let goingDown { return refuse(goingDown.refusal("deactivate")) }
            if host.deactivate() {
                logger.info("deactivated; the display is let go until reactivate")
                // Nothing of ours is seen now: open questions go to the askers' fallbacks.
                prompts.hidden()
                if session.state == .showing { handOverWatch.began(at: clock.now) }
            }
            return reply(["deactivated": true])
        case .reactivate:
            handOverWatch.ended()
            if host.reactivate() {
                if session.state == .showing || session.state == .hiding { host.reacquire() }
                needsDraw = true
                logger.info("reactivated")
            }
            return reply(["deactivated": false])
        case .show(let show):
            var named: OutputLayouts.Assigned?
            if let output = show.output {
                switch assignedLayout(show.layout) {
                case .success(let a): named = a
                case .failure(let e): return refuse(e)
                }
                logger.info("show: \(output) shows \(named?.name ?? "")")
            }
            let look: SkeletonLook
            switch lookFor(layout: show.output == nil ? show.layout : nil, overrides: show.overrides, reset: show.reset) {
            case .success(let l): look = l
            case .failure(let e): return refuse(e)
            }
            if let output = show.output, let named {
                let showing = session.state == .showing || session.state == .hiding
                screen.outputLayouts.assign(named, to: output, byRequest: true, transition: show.transition ?? named.layout.presentation.transition,
                                            showing: showing, now: now)
            }
            let outcome = performShow(look, delay: show.delay, transition: show.transition ?? look.presentation.transition, now: now)
            var fields: [String: JSONValue] = ["state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            fields[outcome == .updated ? "updated" : outcome.rawValue] = true
            if let output = show.output, let named { addOutput(output, named, to: &fields) }
            return Performed(reply: .ok(id: id, fields), awaiting: show.wait && outcome != .updated ? .showing : nil)
        case .update(let update):
            if session.state == .idle && update.keep {
                screen.keep(update)
                return reply(["updated": true, "state": .string(session.state.rawValue)])
            }
            guard session.state != .idle else { return refuse(ProtocolError(.notShowing, "update while nothing is shown: use show first")) }
            var named: OutputLayouts.Assigned?
            if update.output != nil {
                switch assignedLayout(update.layout) {
                case .success(let a): named = a
                case .failure(let e): return refuse(e)
                }
            }
            var look: SkeletonLook
            switch lookFor(layout: update.output == nil ? update.layout : nil, overrides: update.overrides, reset: update.reset) {
            case .success(let l): look = l
            case .failure(let e): return refuse(e)
            }
            switch ScreenContent.change(update, for: look.layout) {
            case .success(let change): look.content = look.content.merging(change)
            case .failure(let e): return refuse(e)
            }
            screen.keep(update)
            screen.updates(look)
            if let output = update.output, let named {
                screen.outputLayouts.assign(named, to: output, byRequest: true, transition: update.transition ?? named.layout.presentation.transition,
                                            showing: true, now: now)
            }
            // An update that changes nothing on screen (a message for a layout without a message
            // node, the same value again) draws nothing.
            let changes = look != session.lookInForce || update.output != nil
            if changes { session.update(look, transition: update.transition ?? look.presentation.transition, now: now) }
            let retaken = (session.state == .showing || session.state == .hiding) && host.reacquire()
            if changes || retaken { needsDraw = true }
            if debugTree { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
            var fields: [String: JSONValue] = ["updated": true, "state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            if let output = update.output, let named { addOutput(output, named, to: &fields) }
            return reply(fields)
        case .hide(let hide):
            if let goingDown { return refuse(goingDown.refusal("hide")) }
            let transition = hide.transition ?? session.lookInForce?.presentation.transition ?? .default
            let outcome = performHide(transition: transition, retain: hide.retain, now: now)
            return Performed(reply: .ok(id: id, ["state": .string(session.state.rawValue), outcome.rawValue: true]),
                             awaiting: hide.wait && outcome == .hiding ? .idle : nil)
        }
    }

    private func addOutput(_ output: String, _ named: OutputLayouts.Assigned, to fields: inout [String: JSONValue]) {
        fields["output"] = .string(output)
        fields["layout"] = .string(named.name)
        fields["connected"] = .bool(host.compositors.contains { $0.output.name == output })
    }

    /// A show, whoever asks (the control socket, Plymouth's clients).
    func performShow(_ look: SkeletonLook, delay: Double, transition: TransitionSpec, now: Double) -> Session.ShowOutcome {
        let outcome = session.show(look, delay: delay, transition: transition, now: now)
        screen.shows(look)
        needsDraw = true
        if outcome != .pending { host.reacquire() }
        if outcome == .shown { didAppear() }
        logger.info("show \(look.layoutName): \(outcome.rawValue)")
        return outcome
    }

    /// A hide, whoever asks: the display is let go (or handed over with the frame retained)
    /// once the skeleton has gone.
    func performHide(transition: TransitionSpec, retain: Bool, now: Double) -> Session.HideOutcome {
        let outcome = session.hide(transition: transition, retain: retain, now: now)
        handOverWatch.ended()
        needsDraw = true
        logger.info("hide: \(outcome.rawValue)")
        switch outcome {
        case .retained:
            markHidden(true)
            host.release(retainingPicture: true)
            // The app has the screen: what waited for the real root is written now, as after a
            // hide that lets the display go.
            host.lastChanceForStartFrames()
        case .hiding:
            host.fadeToConsole()
        case .cancelled:
            markHidden(true)
        case .hidden:
            handle(.disappeared(retained: false))
        case .alreadyHidden:
            break
        }
        return outcome
    }

    /// The look a show or update asks for: a named layout, or the one in force, as the screen's
    /// content makes it (`ScreenContent.look`).
    func lookFor(layout: String?, overrides: PresentationOverrides, reset: Bool) -> Result<SkeletonLook, ProtocolError> {
        let base: SkeletonLook
        if let name = layout {
            switch store.load(name) {
            case .success(let l): base = SkeletonLook(layoutName: l.name, layout: l.layout)
            case .failure(let e): return .failure(e)
            }
        } else if let current = session.lookInForce {
            base = current
        } else {
            switch store.load(settings.startLayout ?? "default") {
            case .success(let l): base = SkeletonLook(layoutName: l.name, layout: l.layout)
            case .failure: base = SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout)
            }
        }
        return .success(screen.look(base, adding: overrides, reset: reset))
    }

    /// The layout a request names for one output.
    func assignedLayout(_ name: String?) -> Result<OutputLayouts.Assigned, ProtocolError> {
        guard let name else { return .failure(ProtocolError(.badRequest, "an output is named only with the layout it is to show")) }
        return store.load(name).map { OutputLayouts.Assigned(name: $0.name, layout: $0.layout) }
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
        guard !waiters.isEmpty else { return }
        let transitioning = session.isTransitioning
        var remaining: [Waiter] = []
        for w in waiters where !w.client.isClosed {
            var reached = session.state == w.until && !transitioning
            var problem: String?
            if reached && w.until == .showing && host.display != nil {
                // A display that cannot show it (handed over, master lost) answers at once.
                problem = host.unshowableReason
                reached = problem != nil || (pacer.framesDrawn > w.afterFrame && !needsDraw && host.allOutputsCanPresent)
            }
            let superseded = (w.until == .showing && (session.state == .idle || session.state == .hiding))
                || (w.until == .idle && session.state == .showing)
            if reached || superseded {
                var fields: [String: JSONValue] = ["state": .string(session.state.rawValue)]
                fields[w.until == .showing ? "shown" : "hidden"] = .bool(reached && problem == nil)
                if let problem { fields["problem"] = .string(problem) }
                w.client.fulfil(w.ticket, with: .ok(id: w.id, fields))
                server?.flush(w.client)
            } else {
                remaining.append(w)
            }
        }
        waiters = remaining
    }

    /// Re-reads settings and layouts; broken files are reported and the old versions stay.
    func reload() -> [String] {
        var problems: [String] = []
        switch settingsSource.load() {
        case .success(let s):
            if s.socketPath != settings.socketPath { problems.append("the socket path changes only on restart") }
            var updated = s
            updated.socketPath = settings.socketPath
            settings = updated
            host.settings = updated
            pacer.maxFPS = updated.maxFPS
            logger.level = s.logLevel
        case .failure(let e):
            problems += e.lines
        }
        problems += store.reload(directory: settings.layoutsDirectory)
        screen.outputLayouts.applySettings(settingsOutputLayouts(), now: clock.now)
        needsDraw = true
        if let look = session.lookInForce, look.layoutName != LayoutStore.builtin.name,
           case .success(let fresh) = store.load(look.layoutName), fresh.layout != look.layout {
            var updatedLook = look
            updatedLook.layout = fresh.layout
            session.update(updatedLook, transition: updatedLook.presentation.transition, now: clock.now)
            needsDraw = true
        }
        for p in problems { logger.error("reload: \(p)") }
        return problems
    }
}
