import SkeletonSettings
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// The commands of the control protocol and the replies that wait for a transition.
extension Daemon {
    func execute(_ request: Request, from client: ClientConnection) {
        let now = clock.now
        let id = request.id
        switch request.command {
        case .ping:
            client.reply(.ok(id: id, ["pong": true]))
        case .status:
            client.reply(.ok(id: id, statusFields(now: now)))
        case .tree:
            guard let look = session.lookInForce else {
                client.reply(.error(id: id, ProtocolError(.notShowing, "nothing is shown: show a layout first")))
                return
            }
            client.reply(.ok(id: id, ["tree": treeJSON(look)]))
        case .reload:
            let problems = reload()
            if problems.isEmpty { client.reply(.ok(id: id, ["reloaded": true])) }
            else { client.reply(.error(id: id, ProtocolError(.reloadFailed, problems.joined(separator: "; ") + " (the previous version stays in force)"))) }
        case .quit:
            client.reply(.ok(id: id, ["quitting": true]))
            _ = client.writePending()
            running = false
        case .newRoot(let root):
            client.reply(newRootReply(root, id: id, uid: client.uid))
            if !running { _ = client.writePending() }
        case .show(let show):
            var named: OutputLayouts.Assigned?
            if let output = show.output {
                switch assignedLayout(show.layout) {
                case .success(let a): named = a
                case .failure(let e): client.reply(.error(id: id, e)); return
                }
                logger.info("show: \(output) shows \(named?.name ?? "")")
            }
            let look: SkeletonLook
            switch lookFor(layout: show.output == nil ? show.layout : nil, overrides: show.overrides, reset: show.reset) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            if let output = show.output, let named {
                let showing = session.state == .showing || session.state == .hiding
                outputLayouts.assign(named, to: output, byRequest: true, transition: show.transition ?? named.layout.presentation.transition,
                                     showing: showing, now: now)
            }
            let outcome = performShow(look, delay: show.delay, transition: show.transition ?? look.presentation.transition, now: now)
            var fields: [String: JSONValue] = ["state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            fields[outcome == .updated ? "updated" : outcome.rawValue] = true
            if let output = show.output, let named {
                fields["output"] = .string(output)
                fields["layout"] = .string(named.name)
                fields["connected"] = .bool(host.compositors.contains { $0.output.name == output })
            }
            if show.wait && outcome != .updated {
                waiters.append(Waiter(client: client, ticket: client.reserve(), id: id, until: .showing, afterFrame: pacer.framesDrawn))
                resolveWaiters()
            } else {
                client.reply(.ok(id: id, fields))
            }
        case .update(let update):
            guard session.state != .idle else {
                client.reply(.error(id: id, ProtocolError(.notShowing, "update while nothing is shown: use show first")))
                return
            }
            var named: OutputLayouts.Assigned?
            if update.output != nil {
                switch assignedLayout(update.layout) {
                case .success(let a): named = a
                case .failure(let e): client.reply(.error(id: id, e)); return
                }
            }
            var look: SkeletonLook
            switch lookFor(layout: update.output == nil ? update.layout : nil, overrides: update.overrides, reset: update.reset) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            switch contentChange(update, for: look.layout) {
            case .success(let change): look.content = look.content.merging(change)
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            contentInForce = contentInForce.merging(look.content)
            if let output = update.output, let named {
                outputLayouts.assign(named, to: output, byRequest: true, transition: update.transition ?? named.layout.presentation.transition,
                                     showing: true, now: now)
            }
            session.update(look, transition: update.transition ?? look.presentation.transition, now: now)
            overridesInForce = look.overrides
            if session.state == .showing || session.state == .hiding { host.reacquire() }
            needsDraw = true
            if debugTree { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
            var fields: [String: JSONValue] = ["updated": true, "state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            if let output = update.output, let named {
                fields["output"] = .string(output)
                fields["layout"] = .string(named.name)
                fields["connected"] = .bool(host.compositors.contains { $0.output.name == output })
            }
            client.reply(.ok(id: id, fields))
        case .hide(let hide):
            let transition = hide.transition ?? session.lookInForce?.presentation.transition ?? .default
            let outcome = performHide(transition: transition, retain: hide.retain, now: now)
            if hide.wait && outcome == .hiding {
                waiters.append(Waiter(client: client, ticket: client.reserve(), id: id, until: .idle, afterFrame: pacer.framesDrawn))
            } else {
                client.reply(.ok(id: id, ["state": .string(session.state.rawValue), outcome.rawValue: true]))
            }
        }
    }

    /// A show, whoever asks (the control socket, Plymouth's clients).
    func performShow(_ look: SkeletonLook, delay: Double, transition: TransitionSpec, now: Double) -> Session.ShowOutcome {
        let outcome = session.show(look, delay: delay, transition: transition, now: now)
        overridesInForce = look.overrides
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
        needsDraw = true
        logger.info("hide: \(outcome.rawValue)")
        switch outcome {
        case .retained:
            markHidden(true)
            host.release(retainingPicture: true)
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

    /// The look a show or update asks for: a named layout, or the one in force, with the
    /// command's overrides on top of those in force (or, with `reset`, on the layout's own look).
    /// The one place overrides are combined.
    func lookFor(layout: String?, overrides: PresentationOverrides, reset: Bool) -> Result<SkeletonLook, ProtocolError> {
        var look: SkeletonLook
        if let name = layout {
            switch store.load(name) {
            case .success(let l): look = SkeletonLook(layoutName: l.name, layout: l.layout)
            case .failure(let e): return .failure(e)
            }
        } else if let current = session.lookInForce {
            look = current
        } else {
            switch store.load(settings.startLayout ?? "default") {
            case .success(let l): look = SkeletonLook(layoutName: l.name, layout: l.layout)
            case .failure: look = SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout)
            }
        }
        look.overrides = reset ? overrides : overridesInForce.merged(with: overrides)
        let targets = ContentTargets(look.layout)
        look.content = targets.roleContent(message: splashMessage, progress: splashProgress).merging(targets.accepted(contentInForce))
        return .success(look)
    }

    /// An update's texts and values, with `message` and `progress` given to the nodes of those
    /// roles; an error naming the node when one is unknown or of the wrong kind.
    func contentChange(_ update: UpdateRequest, for layout: Layout) -> Result<LayoutContent, ProtocolError> {
        let targets = ContentTargets(layout)
        var change = update.content
        if let message = update.message {
            guard let ids = targets.roles[.message] else {
                return .failure(ProtocolError(.badRequest, "\"message\": the layout has no label with \"role\": \"message\""))
            }
            for id in ids { change.texts[id] = message }
        }
        if let progress = update.progress {
            guard let ids = targets.roles[.progress] else {
                return .failure(ProtocolError(.badRequest, "\"progress\": the layout has no bar with \"role\": \"progress\" and not exactly one bar"))
            }
            for id in ids { change.values[id] = progress }
        }
        if let problem = targets.problem(with: change) { return .failure(ProtocolError(.badRequest, "\"content\": " + problem)) }
        return .success(change)
    }

    /// Sets a role's content from a splash protocol (Plymouth's messages and progress, psplash's
    /// MSG and PROGRESS): kept for later layouts, shown now where the layout has such a node.
    func setRoleContent(message: String? = nil, progress: ProgressValue? = nil) {
        if let message { splashMessage = message }
        if let progress { splashProgress = progress }
        guard var look = session.lookInForce else { return }
        let change = ContentTargets(look.layout).roleContent(message: message, progress: progress)
        guard !change.isEmpty else { return }
        look.content = look.content.merging(change)
        contentInForce = contentInForce.merging(change)
        session.update(look, transition: .none, now: clock.now)
        needsDraw = true
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
        outputLayouts.applySettings(settingsOutputLayouts(), now: clock.now)
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
