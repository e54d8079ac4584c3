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
        case .show(let show):
            let look: SkeletonLook
            switch lookFor(layout: show.layout, overrides: show.overrides, reset: show.reset) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            let outcome = session.show(look, delay: show.delay, transition: show.transition ?? look.presentation.transition, now: now)
            overridesInForce = look.overrides
            needsDraw = true
            if outcome != .pending { host.reacquire() }
            if outcome == .shown { didAppear() }
            logger.info("show \(look.layoutName): \(outcome.rawValue)")
            var fields: [String: JSONValue] = ["state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            fields[outcome == .updated ? "updated" : outcome.rawValue] = true
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
            let look: SkeletonLook
            switch lookFor(layout: update.layout, overrides: update.overrides, reset: update.reset) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            session.update(look, transition: update.transition ?? look.presentation.transition, now: now)
            overridesInForce = look.overrides
            if session.state == .showing || session.state == .hiding { host.reacquire() }
            needsDraw = true
            if debugTree { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
            client.reply(.ok(id: id, ["updated": true, "state": .string(session.state.rawValue), "layout": .string(look.layoutName)]))
        case .hide(let hide):
            let transition = hide.transition ?? session.lookInForce?.presentation.transition ?? .default
            let outcome = session.hide(transition: transition, retain: hide.retain, now: now)
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
            if hide.wait && outcome == .hiding {
                waiters.append(Waiter(client: client, ticket: client.reserve(), id: id, until: .idle, afterFrame: pacer.framesDrawn))
            } else {
                client.reply(.ok(id: id, ["state": .string(session.state.rawValue), outcome.rawValue: true]))
            }
        }
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
        return .success(look)
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
