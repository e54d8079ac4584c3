#if canImport(Glibc)
import Glibc
#endif
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
            var look: SkeletonLook
            switch lookFor(layout: show.layout, overrides: show.overrides) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            look.overrides = overridesInForce.merged(with: show.overrides)
            let outcome = session.show(look, delay: show.delay,
                                       transition: show.transition ?? look.presentation.transition, now: now)
            overridesInForce = look.overrides
            needsDraw = true
            if outcome != .pending { reacquireDisplay() }
            if outcome == .shown { didAppear() }
            logger.info("show \(look.layoutName): \(outcome.rawValue)")
            var fields: [String: JSONValue] = ["state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            fields[outcome == .updated ? "updated" : outcome.rawValue] = true
            if show.wait && outcome != .updated {
                waiters.append(Waiter(client: client.fd, ticket: client.reserve(), id: id, until: .showing, afterFrame: framesDrawn))
                resolveWaiters()
            } else {
                client.reply(.ok(id: id, fields))
            }
        case .update(let update):
            guard session.state != .idle else {
                client.reply(.error(id: id, ProtocolError(.notShowing, "update while nothing is shown: use show first")))
                return
            }
            var look: SkeletonLook
            switch lookFor(layout: update.layout, overrides: update.overrides) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            look.overrides = overridesInForce.merged(with: update.overrides)
            session.update(look, now: now)
            overridesInForce = look.overrides
            if session.state == .showing || session.state == .hiding { reacquireDisplay() }
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
                releaseDisplay(retainingPicture: true)
            case .hiding:
                for c in compositors { c.clearBeneath() }
            case .cancelled:
                markHidden(true)
            case .hidden:
                handle(.disappeared(retained: false))
            default:
                break
            }
            if hide.wait && outcome == .hiding {
                waiters.append(Waiter(client: client.fd, ticket: client.reserve(), id: id, until: .idle, afterFrame: framesDrawn))
            } else {
                client.reply(.ok(id: id, ["state": .string(session.state.rawValue), outcome.rawValue: true]))
            }
        }
    }

    /// The look a show or update asks for: a named layout, or the one in force.
    func lookFor(layout: String?, overrides: PresentationOverrides) -> Result<SkeletonLook, ProtocolError> {
        if let name = layout {
            switch store.load(name) {
            case .success(let l): return .success(SkeletonLook(layoutName: l.name, layout: l.layout))
            case .failure(let e): return .failure(e)
            }
        }
        if let current = session.lookInForce { return .success(current) }
        let fallback = settings.startLayout ?? "default"
        switch store.load(fallback) {
        case .success(let l): return .success(SkeletonLook(layoutName: l.name, layout: l.layout))
        case .failure:
            return .success(SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout))
        }
    }

    func resolveWaiters() {
        guard !waiters.isEmpty else { return }
        let transitioning = session.isTransitioning
        var remaining: [Waiter] = []
        for w in waiters {
            guard let client = clients[w.client] else { continue }
            var reached = session.state == w.until && !transitioning
            var unshowable = false
            if reached && w.until == .showing, let display {
                // A display that cannot show it (handed over, master lost) answers at once.
                unshowable = displayReleased || display.problem != nil
                reached = unshowable || (framesDrawn > w.afterFrame && !needsDraw && display.outputs.allSatisfy(\.canPresent))
            }
            let superseded = (w.until == .showing && (session.state == .idle || session.state == .hiding))
                || (w.until == .idle && session.state == .showing)
            if reached || superseded {
                var fields: [String: JSONValue] = ["state": .string(session.state.rawValue)]
                fields[w.until == .showing ? "shown" : "hidden"] = .bool(reached && !unshowable)
                if unshowable, let problem = display?.problem { fields["problem"] = .string(problem) }
                client.fulfil(w.ticket, with: .ok(id: w.id, fields))
                flush(client)
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
            logger.level = s.logLevel
        case .failure(let e):
            problems += e.lines
        }
        problems += store.reload(directory: settings.layoutsDirectory)
        if let look = session.lookInForce, look.layoutName != LayoutStore.builtin.name,
           case .success(let fresh) = store.load(look.layoutName), fresh.layout != look.layout {
            var updatedLook = look
            updatedLook.layout = fresh.layout
            session.update(updatedLook, now: clock.now)
            needsDraw = true
        }
        for p in problems { logger.error("reload: \(p)") }
        return problems
    }
}
