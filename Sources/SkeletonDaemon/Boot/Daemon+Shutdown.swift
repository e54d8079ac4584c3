import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol

/// `shutdown` (`skeletond-poweroff.service` and its siblings, or Plymouth's `change-mode
/// --shutdown|--reboot`): the shutdown layout with its message from the first stopped unit until
/// the power is off.
extension Daemon {
    /// Shows the shutdown layout with the mode's message (kept for later layouts), takes the
    /// display back, from an app that still holds it as soon as it lets go, and holds it from then
    /// on: hide, deactivate and quit are refused and SIGTERM is logged, not obeyed. argv[0] gets
    /// its '@', so systemd-shutdown's last killing spree spares the daemon, as it spares root
    /// storage daemons; its frame stays until the power is off.
    /// With `wait`, the reply comes once the shutdown layout's first frame is on screen: told
    /// again while already going down, once the frame still to draw is drawn, or at once.
    func performShutdown(_ request: ShutdownRequest, id: JSONValue?) -> Performed {
        let mode = request.mode
        guard let name = settings.shutdown.layoutName(start: settings.startLayout) else {
            logger.notice("going down (\(mode.rawValue)): no shutdown layout (settings: shutdown.layout is null); the console shows")
            // A daemon from the initramfs is spared by systemd-shutdown (its '@'): no stop would
            // take a skeleton still shown off the screen.
            if screen.session.state == .showing || screen.session.state == .pending {
                _ = performHide(transition: .none, retain: false, now: clock.now)
            }
            return Performed(reply: .ok(id: id, ["shutdown": false, "mode": .string(mode.rawValue)]))
        }
        InitramfsStart.markArgumentZero()
        let alreadyGoingDown = screen.goDown(mode)
        _ = host.reactivate()
        host.takeBackWhenFree()
        var shown = name
        let show = perform(.show(ShowRequest(layout: name)), id: id, uid: 0)
        if let error = show.reply.error {
            logger.error("shutdown layout \"\(name)\": \(error.message); showing the built-in default layout instead")
            let builtin = SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout)
            _ = performShow(builtin, delay: 0, transition: builtin.presentation.transition, now: clock.now)
            shown = builtin.layoutName
        }
        let message = settings.shutdown.message(for: mode)
        _ = perform(.update(UpdateRequest(message: message, keep: true)), id: id, uid: 0)
        logger.notice("going down (\(mode.rawValue)): showing \(shown), \"\(message)\", until the power is off")
        let awaitsFrame = request.wait && (!alreadyGoingDown || screen.needsDraw)
        return Performed(reply: .ok(id: id, ["shutdown": true, "mode": .string(mode.rawValue), "layout": .string(shown),
                                             "state": .string(screen.session.state.rawValue)]),
                         awaiting: awaitsFrame ? .showing : nil)
    }
}
