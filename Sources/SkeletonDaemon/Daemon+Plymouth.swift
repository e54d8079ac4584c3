import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol

/// Plymouth's requests, carried out as plymouthd would for a splash: show, hide and quit map to
/// ours; status, messages and progress are kept (`PlymouthNotes`); deactivate and reactivate
/// let the display go and take it back; a password or a question gets "no answer" at once (no
/// prompt can be seen, and the asking agent then asks on the console), so a boot never waits
/// on one; what this protocol does not know gets a NAK.
extension Daemon {
    func executePlymouth(_ request: PlymouthRequest) -> PlymouthReply {
        let now = clock.now
        switch request.command {
        case .ping, .keystrokeRemove:
            return .ack
        case .update:
            plymouthNotes.status = request.text
        case .changeMode:
            plymouthNotes.mode = request.text
        case .systemUpdate:
            guard let value = Int(request.text), (0...100).contains(value) else {
                logger.warning("plymouth: system-update progress \"\(request.text)\" is not a whole number from 0 to 100; ignored")
                return .ack
            }
            plymouthNotes.progress = value
            setRoleContent(progress: .fraction(Double(value) / 100))
        case .systemInitialized:
            plymouthNotes.systemInitialized = true
        case .showMessage:
            plymouthNotes.show(message: request.text)
            setRoleContent(message: request.text)
        case .hideMessage:
            plymouthNotes.messages.removeAll { $0 == request.text }
            if splashMessage == request.text { setRoleContent(message: plymouthNotes.messages.last ?? "") }
        case .progressPause:
            plymouthNotes.progressPaused = true
        case .progressUnpause:
            plymouthNotes.progressPaused = false
        case .deactivate:
            if !plymouthNotes.deactivated {
                plymouthNotes.deactivated = true
                host.release(retainingPicture: true)
                logger.info("plymouth: deactivated; the display is let go until reactivate")
            }
        case .reactivate:
            if plymouthNotes.deactivated {
                plymouthNotes.deactivated = false
                if session.state == .showing || session.state == .hiding { host.reacquire() }
                needsDraw = true
                logger.info("plymouth: reactivated")
            }
        case .showSplash:
            if session.state != .showing, case .success(let look) = lookFor(layout: nil, overrides: PresentationOverrides(), reset: false) {
                _ = performShow(look, delay: 0, transition: look.presentation.transition, now: now)
            }
        case .hideSplash:
            _ = performHide(transition: session.lookInForce?.presentation.transition ?? .default, retain: false, now: now)
        case .quit:
            // plymouthd exits; this daemon hides, at once, and stays for a later show.
            let retain = request.argument?.first.map { $0 != 0 } ?? false
            _ = performHide(transition: .none, retain: retain, now: now)
            logger.info("plymouth: quit\(retain ? " --retain-splash" : "")")
        case .password, .cachedPassword, .question, .keystroke:
            logger.notice("plymouth: answered a \(Self.describe(request.command)) (\"\(request.text)\") with no answer: skeletond shows no prompts, so the asking program asks on its own")
            return .noAnswer
        case .newRoot:
            // update-root-fs --new-root-dir: only the daemon from the initramfs has a root to move.
            guard initramfs, request.text.hasPrefix("/") else {
                logger.info("plymouth: the root is now \(request.text)")
                return .ack
            }
            if case .refused = enterNewRoot(request.text, uid: 0) { return .nak }
        case .hasActiveVT:
            return host.display != nil && session.state == .showing ? .ack : .nak
        case .error:
            logger.info("plymouth: a boot error was reported")
        case .unknown(let byte):
            logger.info("plymouth: unknown request \(byte) (\"\(Character(Unicode.Scalar(byte)))\"); answered with a NAK")
            return .nak
        }
        return .ack
    }

    private static func describe(_ command: PlymouthRequest.Command) -> String {
        switch command {
        case .password: return "password request"
        case .cachedPassword: return "cached password request"
        case .question: return "question"
        default: return "keystroke watch"
        }
    }
}
