import SkeletonLayout
import SkeletonPrompt
import SkeletonProtocol
import SkeletonSettings

/// The questions the boot asks while the skeleton shows (systemd's password agents' and
/// Plymouth's clients'), one on screen at a time in the order they came, and Plymouth's
/// keystroke watches, as a value. What is typed is not here: it stays in the shell's
/// `SecretBuffer`, and the keys' meaning comes in as `typed`, `enter`, `escape`, `keystroke`.
/// A question no one can type (no keyboard within `keyboardWait`, or Escape) is left to the
/// asker's fallback, with the console shown.
struct QuestionQueue: Equatable {
    /// Who asked, and where the answer goes.
    enum Asker: Equatable, Sendable {
        case agent(PasswordAsk)
        case plymouth(PlymouthTicket)
    }

    struct Question: Equatable, Sendable {
        var asker: Asker
        var prompt: Prompt
    }

    /// Plymouth's watch-keystroke: any key (nil) or one of the characters ends it.
    struct KeystrokeWatch: Equatable {
        var ticket: PlymouthTicket
        var keys: String?
    }

    /// What a change asks the shell to do, in order.
    enum Effect: Equatable, Sendable {
        case reply(PlymouthTicket, PlymouthReply)
        /// Send what was typed to `asker`, then wipe it.
        case answer(Question)
        /// Wipe what was typed.
        case clearEntry
        /// No question or watch is open: the keyboards are let go.
        case stopReadingKeys
        /// A question is left to the console's own prompt (true), or the last of those is gone.
        case consoleNeeded(Bool)
        /// What the question on screen shows changed.
        case changed
        case log(LogLevel, String)
    }

    private(set) var open: [Question] = []
    private(set) var keystrokeWatches: [KeystrokeWatch] = []
    /// Shown under the question: a keyboard awaited, or the entry full.
    private(set) var notice: String?
    /// When the question on screen came, until a frame shows it (`shown`).
    private(set) var askedAt: Double?
    /// Until when a question waits for a keyboard to be plugged in.
    private var keyboardDeadline: Double?
    /// Ask files left to other agents (Escape, no keyboard): not taken again.
    private var leftToOthers: Set<String> = []
    /// Keyboards the shell reads, as it last said.
    private var keyboards = 0

    static let keyboardWait = 3.0
    /// How many bytes an answer may have.
    static let entryCapacity = 256
    static let waitingForKeyboard = "Waiting for a keyboard"

    var current: Question? { open.first }
    /// The next time something is due: the wait for a keyboard.
    var deadline: Double? { keyboardDeadline }

    /// Whether `question` would be taken: an ask file left to other agents is not.
    func takes(_ question: Question) -> Bool {
        if case .agent(let ask) = question.asker { return !leftToOthers.contains(ask.file) }
        return true
    }

    // MARK: Questions coming and going

    /// A new question; `keyboards`: how many the shell reads now.
    mutating func ask(_ question: Question, keyboards: Int, now: Double) -> [Effect] {
        guard takes(question) else { return [] }
        open.append(question)
        self.keyboards = keyboards
        var effects: [Effect] = [.log(.info, "prompt: \(Self.describe(question)) (\(open.count) open)")]
        waitForKeyboard(now: now)
        if open.count == 1 { effects += begin(now: now) }
        return effects
    }

    /// Plymouth's watch-keystroke.
    mutating func watchKeystroke(_ ticket: PlymouthTicket, keys watched: String?, keyboards: Int, now: Double) -> [Effect] {
        keystrokeWatches.append(KeystrokeWatch(ticket: ticket, keys: watched))
        self.keyboards = keyboards
        waitForKeyboard(now: now)
        return []
    }

    /// Plymouth's ignore-keystroke: the first watch for these keys ends with no answer, as
    /// plymouthd ends it.
    mutating func ignoreKeystroke(_ watched: String?) -> [Effect] {
        guard let index = keystrokeWatches.firstIndex(where: { $0.keys == watched }) else { return [] }
        return [.reply(keystrokeWatches.remove(at: index).ticket, .noAnswer)] + stopReadingIfIdle()
    }

    /// The agent's files that went (answered elsewhere, or the asker gave up).
    mutating func agentQuestionsGone(_ files: [String]) -> [Effect] {
        guard !files.isEmpty else { return [] }
        leftToOthers.subtract(files)
        var effects = drop { if case .agent(let ask) = $0.asker { files.contains(ask.file) } else { false } }
        if leftToOthers.isEmpty { effects.append(.consoleNeeded(false)) }
        return effects
    }

    /// A Plymouth client that went away before its answer.
    mutating func plymouthAbandoned(_ ticket: PlymouthTicket) -> [Effect] {
        keystrokeWatches.removeAll { $0.ticket == ticket }
        return drop { $0.asker == .plymouth(ticket) } + stopReadingIfIdle()
    }

    /// Nothing of the skeleton is seen: every question is left to the askers' fallbacks at once.
    mutating func withdraw() -> [Effect] {
        guard !open.isEmpty || !keystrokeWatches.isEmpty else { return [] }
        var effects = open.flatMap { giveUp($0, say: "the skeleton was hidden") }
        open = []
        effects += keystrokeWatches.map { .reply($0.ticket, .noAnswer) }
        keystrokeWatches = []
        return effects + finish()
    }

    // MARK: Keys

    /// The keyboards the shell reads changed (one plugged in or out).
    mutating func keyboardsChanged(_ count: Int, now: Double) -> [Effect] {
        keyboards = count
        if count > 0 {
            keyboardDeadline = nil
            if notice == Self.waitingForKeyboard { notice = nil }
        } else if !open.isEmpty {
            notice = Self.waitingForKeyboard
            keyboardDeadline = now + Self.keyboardWait
        }
        return [.changed]
    }

    /// Time moves on: questions still without a keyboard at their deadline go to the console.
    mutating func advance(to now: Double) -> [Effect] {
        guard let until = keyboardDeadline, now >= until, keyboards == 0 else { return [] }
        keyboardDeadline = nil
        var effects: [Effect] = [.log(.warning, "prompt: no keyboard within \(JSONValue.formatNumber(Self.keyboardWait)) s; the questions are left to the console")]
        effects += open.flatMap { giveUp($0, say: "no keyboard") }
        open = []
        return effects + [.consoleNeeded(true)] + finish()
    }

    /// A character was typed into the question on screen; `taken` false: the entry is full.
    mutating func typed(taken: Bool) -> [Effect] {
        notice = taken ? nil : "No more than \(Self.entryCapacity) characters: the rest is not taken"
        return [.changed]
    }

    /// Backspace on the question on screen.
    mutating func erased() -> [Effect] {
        notice = nil
        return [.changed]
    }

    /// Enter on the question on screen: it is answered with what was typed.
    mutating func enter(now: Double) -> [Effect] {
        guard let question = open.first else { return [] }
        open.removeFirst()
        notice = nil
        return [.answer(question)] + (open.isEmpty ? finish() : begin(now: nil))
    }

    /// Escape on the question on screen: it is left to the console's prompt.
    mutating func escape(now: Double) -> [Effect] {
        guard let question = open.first else { return [] }
        open.removeFirst()
        var effects: [Effect] = [.log(.notice, "prompt: Escape: \(Self.describe(question)) is left to the console")]
        effects += giveUp(question, say: "Escape") + [.consoleNeeded(true), .clearEntry]
        notice = nil
        return effects + (open.isEmpty ? finish() : begin(now: now))
    }

    /// A key while no question is on screen: the first keystroke watch it ends is answered.
    mutating func keystroke(_ key: String) -> [Effect] {
        guard let index = keystrokeWatches.firstIndex(where: { $0.keys.map { $0.contains(key) } ?? true }) else { return [] }
        let watch = keystrokeWatches.remove(at: index)
        return [.reply(watch.ticket, .answer(key))] + stopReadingIfIdle()
    }

    /// A frame with the question on screen is up: says how long after it came, once.
    mutating func shown(now: Double) -> [Effect] {
        guard let at = askedAt else { return [] }
        askedAt = nil
        return [.log(.info, "prompt: on screen \(JSONValue.formatNumber(((now - at) * 10000).rounded() / 10)) ms after it was asked")]
    }

    // MARK: Private

    private mutating func waitForKeyboard(now: Double) {
        if keyboards == 0, keyboardDeadline == nil, !open.isEmpty { keyboardDeadline = now + Self.keyboardWait }
    }

    /// The asker is told no one here answers: Plymouth's client gets "no answer" and asks on
    /// its own; an agent's question is left to the other agents (the console's).
    private mutating func giveUp(_ question: Question, say reason: String) -> [Effect] {
        var effects: [Effect] = []
        switch question.asker {
        case .agent(let ask): leftToOthers.insert(ask.file)
        case .plymouth(let ticket): effects.append(.reply(ticket, .noAnswer))
        }
        return effects + [.log(.info, "prompt: \(Self.describe(question)) not answered here (\(reason))")]
    }

    /// The next question comes on screen (`now`: when it came; nil for one already waiting).
    private mutating func begin(now: Double?) -> [Effect] {
        askedAt = now
        var effects: [Effect] = [.clearEntry]
        // A question that can be typed here brings the skeleton back over a console shown before.
        if keyboards > 0 { effects.append(.consoleNeeded(false)) }
        notice = keyboards == 0 ? Self.waitingForKeyboard : nil
        if let now { waitForKeyboard(now: now) }
        return effects + [.changed]
    }

    private mutating func drop(_ matching: (Question) -> Bool) -> [Effect] {
        let wasCurrent = open.first.map(matching) ?? false
        open.removeAll(where: matching)
        guard wasCurrent else { return [] }
        return open.isEmpty ? finish() : begin(now: nil)
    }

    private mutating func stopReadingIfIdle() -> [Effect] {
        open.isEmpty && keystrokeWatches.isEmpty ? finish() : []
    }

    /// No question open: what was typed is wiped, the keyboards let go when no watch needs them.
    private mutating func finish() -> [Effect] {
        notice = nil
        keyboardDeadline = nil
        var effects: [Effect] = [.clearEntry]
        if open.isEmpty && keystrokeWatches.isEmpty {
            keyboards = 0
            effects.append(.stopReadingKeys)
        }
        return effects + [.changed]
    }

    static func describe(_ question: Question) -> String {
        switch question.asker {
        case .agent(let ask): return "\(ask.file) (\"\(ask.message)\")"
        case .plymouth: return "Plymouth's \(question.prompt.kind == .question ? "question" : "password request") (\"\(question.prompt.message)\")"
        }
    }
}
