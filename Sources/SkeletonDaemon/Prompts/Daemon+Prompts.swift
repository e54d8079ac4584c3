import SkeletonInput
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import SkeletonSettings
import SkeletonSystem

/// The boot's questions on the skeleton: systemd's password agent protocol and Plymouth's
/// password, question and keystroke requests, through the prompt desk.
extension Daemon {
    static func makePromptDesk(logger: Logger, settings: PromptSettings) -> PromptDesk {
        PromptDesk(logger: logger) {
            let keymap = settings.keymap.flatMap(KeymapChoice.init(option:)) ?? KeymapChoice.compiledOrSystem()
            do {
                let keyboard = try Keyboard(translator: try KeyTranslator(keymap), directory: settings.inputDirectory)
                keyboard.log = { logger.info("prompt: \($0)") }
                logger.info("prompt: reading \(keyboard.count) keyboard\(keyboard.count == 1 ? "" : "s") with the keymap \(keymap)")
                return keyboard
            } catch let error as KeymapError {
                logger.error("prompt: \(error); keys cannot be read")
            } catch {
                logger.error("prompt: \(error)")
            }
            return nil
        }
    }

    /// The desk's answers go out through the inlets; what it changes is drawn.
    func wirePrompts() {
        let desk = prompts
        desk.replyPlymouth = { [unowned self] ticket, reply in inlets.plymouth?.fulfil(ticket, with: reply) }
        desk.replyPlymouthSecret = { [unowned self] ticket, secret in inlets.plymouth?.fulfil(ticket, secret: secret) }
        desk.replyAgent = { [unowned self] (ask, secret) throws(Errno) in try inlets.agent?.answer(ask, with: secret) }
        desk.changed = { [unowned self] in screen.needsDraw = true }
        desk.consoleNeeded = { [unowned self] needed in stepAside(needed) }
    }

    func startAgent() {
        guard let directory = settings.prompts.agentDirectory else { return }
        let agent = PasswordAgent(directory: directory, logger: logger)
        guard agent.start() else { return }
        inlets.agent = agent
        logger.info("password agent: watching \(directory)")
        agent.rescan()
        offerAgentQuestions()
    }

    /// Whether a question can be put on screen now: the skeleton shows on a display that is
    /// not handed over (`deactivate`: a display server has the card, and would hide it).
    private var canAsk: Bool { screen.session.state == .showing && host.display != nil && !host.deactivated && screen.goingDown == nil }

    /// The agent's open questions that the desk does not have yet, while the skeleton shows.
    func offerAgentQuestions() {
        guard let agent = inlets.agent, canAsk else { return }
        let now = clock.now
        for ask in agent.asks where !prompts.questions.contains(where: { $0.asker == .agent(ask) }) {
            prompts.ask(PromptDesk.Question(asker: .agent(ask), prompt: Prompt(kind: .password, message: ask.message, echo: ask.echo)), now: now)
        }
    }

    func askPlymouth(_ prompt: Prompt, ticket: PlymouthTicket) -> PlymouthReply? {
        guard canAsk else {
            logger.info("plymouth: \(prompt.kind == .question ? "a question" : "a password request") (\"\(prompt.message)\") while the skeleton does not show: no answer, the client asks on its own")
            return .noAnswer
        }
        prompts.ask(PromptDesk.Question(asker: .plymouth(ticket), prompt: prompt), now: clock.now)
        return nil
    }

    func watchKeystroke(_ keys: String?, ticket: PlymouthTicket) -> PlymouthReply? {
        guard canAsk else { return .noAnswer }
        prompts.watchKeystroke(ticket, keys: keys, now: clock.now)
        return nil
    }

    /// The agent's watch or a keyboard was ready; false when `fd` is neither.
    func handlePromptEvent(_ fd: FileDescriptor) -> Bool {
        if let agent = inlets.agent, agent.handle(fd) {
            let gone = agent.rescan()
            prompts.agentQuestionsGone(gone)
            offerAgentQuestions()
            return true
        }
        return prompts.handle(fd, now: clock.now)
    }

    func promptsTick(now: Double) {
        prompts.tick(now: now)
        if let agent = inlets.agent { prompts.agentQuestionsGone(agent.expire(now: now)) }
    }

    var promptsDeadline: Double? {
        let expiry = inlets.agent?.nextExpiry
        guard let due = prompts.deadline else { return expiry }
        return min(due, expiry ?? due)
    }

    /// A question is left to the console's own prompt: the console is shown until those
    /// questions are gone (`needed` false), then the skeleton takes the display back.
    func stepAside(_ needed: Bool) {
        guard host.display != nil else { return }
        carryOut(screen.consoleNeededForQuestions(needed))
    }
}
