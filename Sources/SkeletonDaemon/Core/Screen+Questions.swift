import SkeletonPrompt
import SkeletonProtocol

/// The boot's questions on the screen: a Plymouth client's password, question or keystroke
/// watch, and the password agent's asks, are put on it only while it takes questions; what
/// the questions ask (`QuestionQueue.Effect`) becomes the screen's effects. `keyboards`, the
/// shell's, opens the keyboards for a question taken and says how many; it runs inside the
/// transition, so it must not touch the screen.
extension Screen {
    /// Whether a question can be put on screen now: the skeleton shows, on a display held here
    /// (`displayHeld`: open, and not lent by `deactivate` to a display server, which would hide
    /// it), and the system is not going down.
    func takesQuestions(displayHeld: Bool) -> Bool {
        session.state == .showing && displayHeld && goingDown == nil
    }

    /// A Plymouth client's password or question. The reply is the answer given at once: "no
    /// answer" while no question can be put on screen (the client then asks on the console);
    /// nil when it comes as typed (`replyPlymouth`, `sendAnswer`).
    mutating func askPlymouth(_ prompt: Prompt, ticket: PlymouthTicket, displayHeld: Bool, keyboards: () -> Int,
                              now: Double) -> (reply: PlymouthReply?, effects: [ScreenEffect]) {
        guard takesQuestions(displayHeld: displayHeld) else {
            let what = prompt.kind == .question ? "a question" : "a password request"
            return (.noAnswer, [.log(.info, "plymouth: \(what) (\"\(prompt.message)\") while the skeleton does not show: no answer, the client asks on its own")])
        }
        return (nil, ask(QuestionQueue.Question(asker: .plymouth(ticket), prompt: prompt), keyboards: keyboards, now: now))
    }

    /// Plymouth's watch-keystroke: answered when one of `keys` (any key when nil) is typed, or
    /// with "no answer" at once while no question can be put on screen.
    mutating func watchKeystroke(_ keys: String?, ticket: PlymouthTicket, displayHeld: Bool, keyboards: () -> Int,
                                 now: Double) -> (reply: PlymouthReply?, effects: [ScreenEffect]) {
        guard takesQuestions(displayHeld: displayHeld) else { return (.noAnswer, []) }
        let count = keyboards()
        return (nil, changeQuestions { $0.watchKeystroke(ticket, keys: keys, keyboards: count, now: now) })
    }

    /// The password agent's open asks: those the screen does not have yet are put on it while
    /// it takes questions (else they wait for the next show, `offerAgentQuestions`).
    mutating func offer(_ asks: [PasswordAsk], displayHeld: Bool, keyboards: () -> Int, now: Double) -> [ScreenEffect] {
        guard takesQuestions(displayHeld: displayHeld) else { return [] }
        var effects: [ScreenEffect] = []
        for ask in asks where !questions.open.contains(where: { $0.asker == .agent(ask) }) {
            let prompt = Prompt(kind: .password, message: ask.message, echo: ask.echo)
            effects += self.ask(QuestionQueue.Question(asker: .agent(ask), prompt: prompt), keyboards: keyboards, now: now)
        }
        return effects
    }

    private mutating func ask(_ question: QuestionQueue.Question, keyboards: () -> Int, now: Double) -> [ScreenEffect] {
        guard questions.takes(question) else { return [] }
        let count = keyboards()
        return changeQuestions { $0.ask(question, keyboards: count, now: now) }
    }
}
