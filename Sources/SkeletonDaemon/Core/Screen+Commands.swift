import SkeletonLayout
import SkeletonProtocol
import SkeletonSettings

/// The commands that change what the screen shows (show, update, hide, deactivate, reactivate,
/// shutdown), whoever sends them: the control socket, Plymouth's and psplash's adapters. Each is
/// a transition: the answer and the effects for the daemon to carry out, in order.
extension Screen {
    mutating func perform(_ command: Command, in world: CommandWorld, now: Double) -> (CommandAnswer, [ScreenEffect]) {
        switch command {
        case .show(let show): return perform(show, in: world, now: now)
        case .update(let update): return perform(update, in: world, now: now)
        case .hide(let hide): return perform(hide, in: world, now: now)
        case .shutdown(let shutdown): return perform(shutdown, in: world, now: now)
        case .deactivate:
            if let goingDown { return (CommandAnswer(refusing: goingDown.refusal("deactivate")), []) }
            let effects = world.deactivated ? [] : [.deactivateDisplay] + deactivated(now: now)
            return (CommandAnswer(["deactivated": true]), effects)
        case .reactivate:
            return (CommandAnswer(["deactivated": false]), [.reactivateDisplay] + reactivated(wasDeactivated: world.deactivated))
        case .ping, .status, .tree, .reload, .quit, .newRoot:
            return (CommandAnswer(refusing: ProtocolError(.internalError, "\(command) is the daemon's, not the screen's")), [])
        }
    }

    private mutating func perform(_ show: ShowRequest, in world: CommandWorld, now: Double) -> (CommandAnswer, [ScreenEffect]) {
        let asked: (look: SkeletonLook, own: OutputLayouts.Assigned?)
        switch requested(layout: show.layout, output: show.output, overrides: show.overrides, reset: show.reset, in: world) {
        case .success(let r): asked = r
        case .failure(let error): return (CommandAnswer(refusing: error), [])
        }
        var effects: [ScreenEffect] = []
        if let output = show.output, let own = asked.own {
            effects.append(.log(.info, "show: \(output) shows \(own.name)"))
            assign(own, to: output, transition: show.transition, now: now)
        }
        let (outcome, shown) = self.show(asked.look, delay: show.delay, transition: show.transition ?? asked.look.presentation.transition, now: now)
        effects += shown
        var fields: [String: JSONValue] = ["state": .string(session.state.rawValue), "layout": .string(asked.own?.name ?? asked.look.layoutName)]
        fields[outcome == .updated ? "updated" : outcome.rawValue] = true
        return (CommandAnswer(fields, awaiting: show.wait && outcome != .updated ? .showing : nil, output: asked.own == nil ? nil : show.output),
                effects)
    }

    private mutating func perform(_ request: UpdateRequest, in world: CommandWorld, now: Double) -> (CommandAnswer, [ScreenEffect]) {
        switch updateWhileHidden(request) {
        case .success?: return (CommandAnswer(["updated": true, "state": .string(session.state.rawValue)]), [])
        case .failure(let error)?: return (CommandAnswer(refusing: error), [])
        case nil: break
        }
        let asked: (look: SkeletonLook, own: OutputLayouts.Assigned?)
        switch requested(layout: request.layout, output: request.output, overrides: request.overrides, reset: request.reset, in: world) {
        case .success(let r): asked = r
        case .failure(let error): return (CommandAnswer(refusing: error), [])
        }
        switch update(request, look: asked.look, outputLayout: asked.own, now: now) {
        case .success(let updated):
            let fields: [String: JSONValue] = ["updated": true, "state": .string(session.state.rawValue),
                                               "layout": .string(asked.own?.name ?? updated.look.layoutName)]
            return (CommandAnswer(fields, output: asked.own == nil ? nil : request.output), updated.effects)
        case .failure(let error):
            return (CommandAnswer(refusing: error), [])
        }
    }

    private mutating func perform(_ request: HideRequest, in world: CommandWorld, now: Double) -> (CommandAnswer, [ScreenEffect]) {
        if let goingDown { return (CommandAnswer(refusing: goingDown.refusal("hide")), []) }
        var effects: [ScreenEffect] = []
        let transition = request.transition ?? session.lookInForce?.presentation.transition ?? .default
        if request.afterConsole, !request.retain, session.state == .showing {
            switch world.consoleToWaitOn() {
            case .failure(let unwaitable):
                effects.append(.log(.info, "hide: not waiting for the console: \(unwaitable.reason)"))
            case .success(let cells):
                effects += hideAfterConsole(transition: transition, limit: HideRequest.consoleWaitSeconds, shownAtHide: cells, now: now)
                return (CommandAnswer(["state": .string(session.state.rawValue), "waitingForConsole": true]), effects)
            }
        }
        let (outcome, hidden) = hide(transition: transition, retain: request.retain, now: now)
        return (CommandAnswer(["state": .string(session.state.rawValue), outcome.rawValue: true],
                              awaiting: request.wait && outcome == .hiding ? .idle : nil), effects + hidden)
    }

    /// `shutdown` (`skeletond-poweroff.service` and its siblings, or Plymouth's `change-mode
    /// --shutdown|--reboot`): the shutdown layout with the mode's message (kept for later
    /// layouts), the display taken back, from an app that still holds it as soon as it lets go,
    /// and held from then on: hide, deactivate and quit are refused. The daemon is spared by
    /// systemd-shutdown's last killing spree, as root storage daemons are; its frame stays until
    /// the power is off. With `wait`, the reply comes once the shutdown layout's first frame is on
    /// screen: told again while already going down, once the frame still to draw is drawn, or at once.
    private mutating func perform(_ request: ShutdownRequest, in world: CommandWorld, now: Double) -> (CommandAnswer, [ScreenEffect]) {
        let mode = request.mode
        guard let name = world.shutdown.layoutName(start: world.startLayout) else {
            var effects: [ScreenEffect] = [.log(.notice, "going down (\(mode.rawValue)): no shutdown layout (settings: shutdown.layout is null); the console shows")]
            // A daemon from the initramfs is spared by systemd-shutdown (its '@'): no stop would
            // take a skeleton still shown off the screen.
            if session.state == .showing || session.state == .pending {
                effects += hide(transition: .none, retain: false, now: now).1
            }
            return (CommandAnswer(["shutdown": false, "mode": .string(mode.rawValue)]), effects)
        }
        let alreadyGoingDown = goDown(mode)
        var effects: [ScreenEffect] = [.spareFromShutdownKill, .reactivateDisplay, .takeBackWhenFree]
        var shown = name
        let (show, showEffects) = perform(ShowRequest(layout: name), in: world, now: now)
        effects += showEffects
        if let error = show.error {
            effects.append(.log(.error, "shutdown layout \"\(name)\": \(error.message); showing the built-in default layout instead"))
            let builtin = SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout)
            effects += self.show(builtin, delay: 0, transition: builtin.presentation.transition, now: now).1
            shown = builtin.layoutName
        }
        let message = world.shutdown.message(for: mode)
        effects += perform(UpdateRequest(message: message, keep: true), in: world, now: now).1
        effects.append(.log(.notice, "going down (\(mode.rawValue)): showing \(shown), \"\(message)\", until the power is off"))
        let awaitsFrame = request.wait && (!alreadyGoingDown || needsDraw)
        return (CommandAnswer(["shutdown": true, "mode": .string(mode.rawValue), "layout": .string(shown),
                               "state": .string(session.state.rawValue)], awaiting: awaitsFrame ? .showing : nil), effects)
    }

    /// What a show or update asks for: the look (a named layout, or the one in force; while
    /// nothing is in force, the start layout, else the built-in one) as the screen's content makes
    /// it, and, when it names an output, the layout that output alone is to show (the look is then
    /// the one in force).
    private func requested(layout: String?, output: String?, overrides: PresentationOverrides, reset: Bool,
                           in world: CommandWorld) -> Result<(look: SkeletonLook, own: OutputLayouts.Assigned?), ProtocolError> {
        var own: OutputLayouts.Assigned?
        if output != nil {
            guard let layout else { return .failure(ProtocolError(.badRequest, "an output is named only with the layout it is to show")) }
            switch world.layout(layout) {
            case .success(let l): own = OutputLayouts.Assigned(name: l.name, layout: l.layout)
            case .failure(let e): return .failure(e)
            }
        }
        let base: SkeletonLook
        if let name = own == nil ? layout : nil {
            switch world.layout(name) {
            case .success(let l): base = SkeletonLook(layoutName: l.name, layout: l.layout)
            case .failure(let e): return .failure(e)
            }
        } else if let current = session.lookInForce {
            base = current
        } else {
            switch world.layout(world.startLayout ?? "default") {
            case .success(let l): base = SkeletonLook(layoutName: l.name, layout: l.layout)
            case .failure: base = SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout)
            }
        }
        return .success((content.look(base, adding: overrides, reset: reset), own))
    }
}
