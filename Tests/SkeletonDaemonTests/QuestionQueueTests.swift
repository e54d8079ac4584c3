@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonPrompt
import SkeletonSystem
import Testing

/// The boot's questions as a value: the order they come on screen, what a key, a keyboard and
/// time do to them, and what is asked of the shell, with no daemon, keyboard or socket.
@Suite struct QuestionQueueTests {
    typealias Question = QuestionQueue.Question

    static func plymouth(_ serial: Int, _ message: String = "Passphrase:") -> Question {
        Question(asker: .plymouth(ticket(serial)), prompt: Prompt(kind: .password, message: message))
    }

    static func agent(_ file: String) -> Question {
        Question(asker: .agent(PasswordAsk(file: file, socket: file + ".socket", message: "Unlock \(file)")),
                 prompt: Prompt(kind: .password, message: "Unlock \(file)"))
    }

    static func ticket(_ serial: Int) -> PlymouthTicket { PlymouthTicket(connection: FileDescriptor(rawValue: 7), serial: serial) }

    func withoutLog(_ effects: [QuestionQueue.Effect]) -> [QuestionQueue.Effect] {
        effects.filter { if case .log = $0 { return false } else { return true } }
    }

    @Test func questionsComeOnScreenOneAtATimeInTheOrderTheyCame() {
        var queue = QuestionQueue()
        let first = Self.plymouth(1), second = Self.agent("ask.1")
        #expect(withoutLog(queue.ask(first, keyboards: 1, now: 0)) == [.clearEntry, .consoleNeeded(false), .changed])
        #expect(withoutLog(queue.ask(second, keyboards: 1, now: 0.5)).isEmpty, "the second waits")
        #expect(queue.current == first)
        #expect(queue.askedAt == 0)
        #expect(queue.shown(now: 0.04) == [.log(.info, "prompt: on screen 40 ms after it was asked")])
        #expect(queue.shown(now: 0.08).isEmpty, "said once")
        // Enter answers the one on screen with what was typed; the next comes up with an empty entry.
        #expect(queue.enter(now: 1) == [.answer(first), .clearEntry, .consoleNeeded(false), .changed])
        #expect(queue.current == second)
        #expect(queue.enter(now: 2) == [.answer(second), .clearEntry, .stopReadingKeys, .changed])
        #expect(queue.current == nil)
    }

    @Test func withoutAKeyboardTheQuestionsGoToTheConsoleAfterTheWait() {
        var queue = QuestionQueue()
        let question = Self.plymouth(1), ask = Self.agent("ask.2")
        _ = queue.ask(question, keyboards: 0, now: 10)
        _ = queue.ask(ask, keyboards: 0, now: 10)
        #expect(queue.notice == QuestionQueue.waitingForKeyboard)
        #expect(queue.deadline == 10 + QuestionQueue.keyboardWait)
        #expect(queue.advance(to: 12.9).isEmpty)
        let effects = queue.advance(to: 13)
        #expect(effects.first == .log(.warning, "prompt: no keyboard within 3 s; the questions are left to the console"))
        #expect(withoutLog(effects) == [.reply(Self.ticket(1), .noAnswer), .consoleNeeded(true), .clearEntry, .stopReadingKeys, .changed])
        #expect(queue.current == nil && queue.deadline == nil)
        // The ask file left to the console's agent is not taken again, until it goes.
        #expect(!queue.takes(ask))
        #expect(queue.agentQuestionsGone(["ask.2"]) == [.consoleNeeded(false)])
        #expect(queue.takes(ask))
    }

    @Test func aKeyboardPluggedInInTimeKeepsTheQuestion() {
        var queue = QuestionQueue()
        _ = queue.ask(Self.plymouth(1), keyboards: 0, now: 0)
        #expect(queue.keyboardsChanged(1, now: 1) == [.changed])
        #expect(queue.notice == nil && queue.deadline == nil)
        #expect(queue.advance(to: 10).isEmpty)
        // Unplugged again: the wait starts over from then.
        _ = queue.keyboardsChanged(0, now: 20)
        #expect(queue.notice == QuestionQueue.waitingForKeyboard)
        #expect(queue.deadline == 20 + QuestionQueue.keyboardWait)
    }

    @Test func escapeLeavesTheQuestionToTheConsoleAndBringsUpTheNext() {
        var queue = QuestionQueue()
        let first = Self.agent("ask.3"), second = Self.plymouth(2)
        _ = queue.ask(first, keyboards: 1, now: 0)
        _ = queue.ask(second, keyboards: 1, now: 0)
        let effects = queue.escape(now: 1)
        #expect(effects.first == .log(.notice, "prompt: Escape: ask.3 (\"Unlock ask.3\") is left to the console"))
        #expect(withoutLog(effects) == [.consoleNeeded(true), .clearEntry, .clearEntry, .consoleNeeded(false), .changed])
        #expect(queue.current == second)
        #expect(queue.askedAt == 1)
    }

    @Test func aFullEntrySaysSoUntilTheNextKey() {
        var queue = QuestionQueue()
        _ = queue.ask(Self.plymouth(1), keyboards: 1, now: 0)
        #expect(queue.typed(taken: false) == [.changed])
        #expect(queue.notice == "No more than \(QuestionQueue.entryCapacity) characters: the rest is not taken")
        _ = queue.erased()
        #expect(queue.notice == nil)
    }

    @Test func keystrokeWatchesEndOnTheirKeysOrWhenIgnored() {
        var queue = QuestionQueue()
        _ = queue.watchKeystroke(Self.ticket(1), keys: "yn", keyboards: 1, now: 0)
        _ = queue.watchKeystroke(Self.ticket(2), keys: nil, keyboards: 1, now: 0)
        #expect(queue.keystroke("y") == [.reply(Self.ticket(1), .answer("y"))], "the first watch that takes the key")
        #expect(queue.ignoreKeystroke("yn").isEmpty, "already ended")
        #expect(queue.ignoreKeystroke(nil) == [.reply(Self.ticket(2), .noAnswer), .clearEntry, .stopReadingKeys, .changed])
        #expect(queue.keystrokeWatches.isEmpty)
    }

    @Test func anAbandonedQuestionOnScreenMakesWayForTheNext() {
        var queue = QuestionQueue()
        let second = Self.plymouth(2)
        _ = queue.ask(Self.plymouth(1), keyboards: 1, now: 0)
        _ = queue.ask(second, keyboards: 1, now: 0)
        #expect(queue.plymouthAbandoned(Self.ticket(1)) == [.clearEntry, .consoleNeeded(false), .changed])
        #expect(queue.current == second)
        #expect(queue.askedAt == nil, "it was asked before; no time on screen to say")
    }

    @Test func aHideLeavesEveryQuestionToItsAsker() {
        var queue = QuestionQueue()
        _ = queue.ask(Self.plymouth(1), keyboards: 1, now: 0)
        _ = queue.watchKeystroke(Self.ticket(2), keys: nil, keyboards: 1, now: 0)
        #expect(withoutLog(queue.withdraw()) == [.reply(Self.ticket(1), .noAnswer), .reply(Self.ticket(2), .noAnswer),
                                                 .clearEntry, .stopReadingKeys, .changed])
        #expect(queue.withdraw().isEmpty, "nothing open: nothing to do")
    }
}
