import SkeletonLayout
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol

/// Plymouth's requests as control commands, answered as plymouthd answers a splash: show, hide,
/// quit, messages, progress, deactivate and reactivate become the socket's commands; the boot
/// mode, status and the rest are noted (`PlymouthNotes`, reported by `status`); a password, a
/// question and a keystroke watch go to the prompts (`PromptDesk`), which answer them when typed
/// or with "no answer" (the asker then asks on the console); what this protocol does not know
/// gets a NAK.
struct PlymouthAdapter {
    /// What a request comes to: an answer at once, or a command whose reply gives the answer.
    enum Action {
        case answer(PlymouthReply)
        case command(Command, answer: @Sendable (Reply) -> PlymouthReply)
        /// Answered from what the screen is now (`ping`, `has-active-vt`).
        case askScreen(@Sendable (ScreenFacts) -> PlymouthReply)
        /// Answered when typed: a password or a question (`prompt`), or a keystroke watch.
        case prompt(Prompt)
        case watchKeystroke(keys: String?)
        case ignoreKeystroke(keys: String?)
    }

    private(set) var notes: PlymouthNotes
    let logger: Logger
    /// The message last given to the message role, so that hiding it takes it away.
    private var shownMessage: String?

    init(socket: String, logger: Logger) {
        notes = PlymouthNotes(socket: socket)
        self.logger = logger
    }

    mutating func action(for request: PlymouthRequest) -> Action {
        let acknowledged: @Sendable (Reply) -> PlymouthReply = { _ in .ack }
        switch request.command {
        case .ping:
            // Nothing shown (after a hide or quit): "not running", as plymouthd after quit. Debian's
            // askpass then asks on the console; with plymouth it would take "no answer" as an
            // empty passphrase.
            return .askScreen { $0.state == .idle ? .nak : .ack }
        case .keystrokeRemove:
            return .ignoreKeystroke(keys: request.argument == nil ? nil : request.text)
        case .update:
            notes.status = request.text
        case .changeMode:
            notes.mode = request.text
            // `plymouth change-mode --shutdown|--reboot`: the daemon's own shutdown.
            if let mode = ShutdownMode(plymouthMode: request.text) {
                return .command(.shutdown(ShutdownRequest(mode: mode)), answer: acknowledged)
            }
        case .systemUpdate:
            guard let value = ProgressValue.percent(parsing: request.text) else {
                logger.limited(.warning, key: "plymouth system-update", "plymouth: system-update progress \"\(request.text)\" is not \(ProgressValue.percentRequirement); ignored")
                return .answer(.ack)
            }
            notes.progress = value
            return .command(.update(UpdateRequest(progress: .percent(value), keep: true)), answer: acknowledged)
        case .systemInitialized:
            notes.systemInitialized = true
        case .showMessage:
            notes.show(message: request.text)
            shownMessage = request.text
            return .command(.update(UpdateRequest(message: request.text, keep: true)), answer: acknowledged)
        case .hideMessage:
            notes.messages.removeAll { $0 == request.text }
            guard shownMessage == request.text else { return .answer(.ack) }
            shownMessage = notes.messages.last
            return .command(.update(UpdateRequest(message: notes.messages.last ?? "", keep: true)), answer: acknowledged)
        case .progressPause:
            notes.progressPaused = true
        case .progressUnpause:
            notes.progressPaused = false
        case .deactivate:
            return .command(.deactivate, answer: acknowledged)
        case .reactivate:
            return .command(.reactivate, answer: acknowledged)
        case .showSplash:
            return .command(.show(ShowRequest()), answer: acknowledged)
        case .hideSplash:
            return .command(.hide(HideRequest()), answer: acknowledged)
        case .quit:
            // plymouthd exits; this daemon hides, at once, and stays for a later show.
            let retain = request.argument?.first.map { $0 != 0 } ?? false
            logger.info("plymouth: quit\(retain ? " --retain-splash" : "")")
            return .command(.hide(HideRequest(transition: TransitionSpec.none, retain: retain)), answer: acknowledged)
        case .password:
            return .prompt(Prompt(kind: .password, message: request.text))
        case .question:
            return .prompt(Prompt(kind: .question, message: request.text, echo: true))
        case .keystroke:
            return .watchKeystroke(keys: request.argument == nil || request.text.isEmpty ? nil : request.text)
        case .cachedPassword:
            // No password is cached here: the client asks for one (plymouthd answers the same
            // way when its cache is empty).
            return .answer(.noAnswer)
        case .newRoot:
            // update-root-fs --new-root-dir: only the daemon from the initramfs has a root to move.
            guard request.text.hasPrefix("/") else {
                logger.info("plymouth: the root is now \(request.text)")
                return .answer(.ack)
            }
            let logger = self.logger, root = request.text
            return .command(.newRoot(root), answer: { reply in
                guard let error = reply.error else { return .ack }
                guard error.code == .badRequest else { return .nak }
                logger.info("plymouth: the root is now \(root)")
                return .ack
            })
        case .hasActiveVT:
            return .askScreen { $0.hasDisplay && $0.state == .showing ? .ack : .nak }
        case .error:
            logger.info("plymouth: a boot error was reported")
        case .unknown(let byte):
            logger.limited(.info, key: "plymouth unknown request", "plymouth: unknown request \(byte) (\"\(Character(Unicode.Scalar(byte)))\"); answered with a NAK")
            return .answer(.nak)
        }
        return .answer(.ack)
    }
}

/// What Plymouth's `ping` and `has-active-vt` are answered from.
struct ScreenFacts: Sendable {
    var state: SessionState
    /// A display is open, whatever its backend.
    var hasDisplay: Bool
}
