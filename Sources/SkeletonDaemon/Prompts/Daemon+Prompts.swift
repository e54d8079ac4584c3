import SkeletonInput
import SkeletonLayout
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import SkeletonSettings
import SkeletonSystem

/// The boot's questions on the skeleton: systemd's password agent protocol and Plymouth's
/// password, question and keystroke requests go into `screen` (its `QuestionQueue`); the keys
/// are read and what is typed kept by the prompt desk.
extension Daemon {
    static func makePromptDesk(logger: Logger, settings: PromptSettings) -> PromptDesk {
        PromptDesk {
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

    func startAgent() {
        guard let directory = settings.prompts.agentDirectory else { return }
        let agent = PasswordAgent(directory: directory, logger: logger)
        guard agent.start() else { return }
        inlets.agent = agent
        logger.info("password agent: watching \(directory)")
        agent.rescan()
        offerAgentQuestions()
    }

    /// The display is open and not handed over (`deactivate`: a display server has the card).
    private var displayHeld: Bool { host.display != nil && !host.deactivated }

    /// The agent's open questions that the screen does not have yet, while the skeleton shows.
    func offerAgentQuestions() {
        guard let agent = inlets.agent else { return }
        carryOut(screen.offer(agent.asks, displayHeld: displayHeld, keyboards: { prompts.readKeys() }, now: clock.now))
    }

    func askPlymouth(_ prompt: Prompt, ticket: PlymouthTicket) -> PlymouthReply? {
        let (reply, effects) = screen.askPlymouth(prompt, ticket: ticket, displayHeld: displayHeld, keyboards: { prompts.readKeys() }, now: clock.now)
        carryOut(effects)
        return reply
    }

    func watchKeystroke(_ keys: String?, ticket: PlymouthTicket) -> PlymouthReply? {
        let (reply, effects) = screen.watchKeystroke(keys, ticket: ticket, displayHeld: displayHeld, keyboards: { prompts.readKeys() }, now: clock.now)
        carryOut(effects)
        return reply
    }

    /// The agent's watch or a keyboard was ready; false when `fd` is neither.
    func handlePromptEvent(_ fd: FileDescriptor) -> Bool {
        if let agent = inlets.agent, agent.handle(fd) {
            let gone = agent.rescan()
            carryOut(screen.changeQuestions { $0.agentQuestionsGone(gone) })
            offerAgentQuestions()
            return true
        }
        let now = clock.now
        guard let keyboardsChanged = prompts.handle(fd, now: now, press: { press($0) }) else { return false }
        if keyboardsChanged {
            let count = prompts.keyboards
            carryOut(screen.changeQuestions { $0.keyboardsChanged(count, now: now) })
        }
        return true
    }

    /// A key, for the question on screen or a keystroke watch (`PromptDesk.press`).
    func press(_ action: KeyAction) {
        carryOut(prompts.press(action, on: &screen, now: clock.now))
    }

    func promptsTick(now: Double) {
        prompts.repeatIfDue(now: now) { press($0) }
        var effects = screen.changeQuestions { $0.advance(to: now) }
        if let agent = inlets.agent {
            let gone = agent.expire(now: now)
            effects += screen.changeQuestions { $0.agentQuestionsGone(gone) }
        }
        carryOut(effects)
    }

    var promptsDeadline: Double? {
        [prompts.repeatDue, screen.questions.deadline, inlets.agent?.nextExpiry].compactMap { $0 }.min()
    }

    /// What was typed goes to the asker (the agent's socket, or Plymouth's waiting client), and is wiped.
    func sendAnswer(_ question: QuestionQueue.Question) {
        let pressed = prompts.keys?.lastKeyTime
        switch question.asker {
        case .agent(let ask):
            do {
                try inlets.agent?.answer(ask, with: prompts.entry)
                logger.info("prompt: answered \(ask.file)")
            } catch {
                logger.warning("prompt: cannot answer \(ask.file): its socket \(ask.socket): \(error)")
            }
        case .plymouth(let ticket):
            inlets.plymouth?.fulfil(ticket, secret: prompts.entry)
            logger.info("prompt: answered Plymouth's \(question.prompt.kind == .question ? "question" : "password request")")
        }
        if let pressed {
            let ms = ((SystemCalls.monotonicSeconds() - pressed) * 10000).rounded() / 10
            logger.info("prompt: answer sent \(JSONValue.formatNumber(ms)) ms after Enter went down")
        }
        prompts.entry.clear()
    }

    /// A question is left to the console's own prompt: the console is shown until those
    /// questions are gone (`needed` false), then the skeleton takes the display back.
    func stepAside(_ needed: Bool) {
        guard host.display != nil else { return }
        carryOut(screen.consoleNeededForQuestions(needed))
    }
}
