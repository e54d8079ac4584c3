import SkeletonLayout
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import SkeletonRender
import SkeletonSystem

/// The questions the boot asks while the skeleton shows (systemd's password agents' and
/// Plymouth's clients'), one on screen at a time, in the order they came, typed on the
/// keyboard. The keyboard is read only while a question or a keystroke watch is open; what is
/// typed lives in a `SecretBuffer`, is never logged and is wiped once answered; the process is
/// not dumpable meanwhile. A question no one can type (no keyboard within `keyboardWait`, or
/// Escape) is left to the asker's fallback, with the console shown (`consoleNeeded`).
final class PromptDesk {
    /// Who asked, and where the answer goes.
    enum Asker: Equatable {
        case agent(PasswordAsk)
        case plymouth(PlymouthTicket)
    }

    struct Question: Equatable {
        var asker: Asker
        var prompt: Prompt
    }

    private(set) var questions: [Question] = []
    /// Plymouth's watch-keystroke requests: any key (nil) or one of the characters ends each.
    private(set) var keystrokeWatches: [(ticket: PlymouthTicket, keys: String?)] = []
    private let entry: SecretBuffer
    private var notice: String?
    private var keys: (any KeySource)?
    /// This desk keeps the process undumpable (`SecretGuard`) while questions are open.
    private var holdsSecret = false
    /// Until when a question waits for a keyboard to be plugged in.
    private var keyboardDeadline: Double?
    /// Ask files left to other agents (Escape, no keyboard): not shown again.
    private var leftToOthers: Set<String> = []
    private let logger: Logger
    /// Opens the keyboards (nil when they cannot be read at all); tests give keys by hand.
    var openKeys: () -> (any KeySource)?

    /// Answers to Plymouth's pending requests.
    var replyPlymouth: (PlymouthTicket, PlymouthReply) -> Void = { _, _ in }
    var replyPlymouthSecret: (PlymouthTicket, SecretBuffer) -> Void = { _, _ in }
    /// Sends an agent's answer ("+" and the password; nil: cancel).
    var replyAgent: (PasswordAsk, SecretBuffer?) throws(Errno) -> Void = { _, _ in }
    /// The console must show (true: a question is left to the console) or may be covered again.
    var consoleNeeded: (Bool) -> Void = { _ in }
    /// What is on screen changed.
    var changed: () -> Void = {}

    static let keyboardWait = 3.0

    /// `openKeys`: opens the keyboards (nil when they cannot be read at all).
    init(logger: Logger, capacity: Int = 256, openKeys: @escaping () -> (any KeySource)?) {
        self.logger = logger
        self.openKeys = openKeys
        entry = SecretBuffer(capacity: capacity)
    }

    /// What the current question shows, if one is up.
    var picture: PromptPicture? {
        guard let q = questions.first else { return nil }
        let shown = q.prompt.echo || q.prompt.kind == .question
        return PromptPicture(message: q.prompt.message, bullets: shown ? 0 : entry.count, text: shown ? entry.visibleText : nil, notice: notice)
    }

    // MARK: Questions coming and going

    /// A new question while the skeleton shows.
    func ask(_ question: Question, now: Double) {
        if case .agent(let ask) = question.asker, leftToOthers.contains(ask.file) { return }
        if !holdsSecret {
            SecretGuard.hold()
            holdsSecret = true
        }
        questions.append(question)
        logger.info("prompt: \(Self.describe(question)) (\(questions.count) open)")
        readKeys(now: now)
        if questions.count == 1 { begin(now: now) }
    }

    /// Plymouth's watch-keystroke.
    func watchKeystroke(_ ticket: PlymouthTicket, keys watched: String?, now: Double) {
        keystrokeWatches.append((ticket, watched))
        readKeys(now: now)
    }

    /// Plymouth's ignore-keystroke: the first watch for these keys ends with no answer, as
    /// plymouthd ends it.
    func ignoreKeystroke(_ watched: String?) {
        guard let index = keystrokeWatches.firstIndex(where: { $0.keys == watched }) else { return }
        replyPlymouth(keystrokeWatches.remove(at: index).ticket, .noAnswer)
        stopReadingIfIdle()
    }

    /// The agent's files that went (answered elsewhere, or the asker gave up).
    func agentQuestionsGone(_ files: [String]) {
        guard !files.isEmpty else { return }
        leftToOthers.subtract(files)
        drop { if case .agent(let ask) = $0.asker { return files.contains(ask.file) } else { return false } }
        if leftToOthers.isEmpty { consoleNeeded(false) }
    }

    /// A Plymouth client that went away before its answer.
    func plymouthAbandoned(_ ticket: PlymouthTicket) {
        keystrokeWatches.removeAll { $0.ticket == ticket }
        drop { $0.asker == .plymouth(ticket) }
        stopReadingIfIdle()
    }

    /// The skeleton went away (or the display was handed over): every question is left to the
    /// askers' fallbacks at once.
    func hidden() {
        for q in questions { giveUp(q, say: "the skeleton was hidden") }
        questions = []
        for w in keystrokeWatches { replyPlymouth(w.ticket, .noAnswer) }
        keystrokeWatches = []
        finish()
    }

    // MARK: Keys

    func addWatches(to list: inout [Watch]) {
        if let keys { list += keys.watches }
    }

    func handle(_ fd: FileDescriptor, now: Double) -> Bool {
        guard let keys else { return false }
        let had = keys.count
        guard keys.handle(fd, now: now, { press($0, now: now) }) else { return false }
        if keys.count != had { keyboardsChanged(now: now) }
        return true
    }

    /// The next time something is due: a held key's repeat, the wait for a keyboard.
    var deadline: Double? {
        guard let due = keys?.repeatDue else { return keyboardDeadline }
        return min(due, keyboardDeadline ?? due)
    }

    func tick(now: Double) {
        keys?.repeatIfDue(now: now) { press($0, now: now) }
        if let until = keyboardDeadline, now >= until, keys?.count ?? 0 == 0 {
            keyboardDeadline = nil
            logger.warning("prompt: no keyboard within \(JSONValue.formatNumber(Self.keyboardWait)) s; the questions are left to the console")
            let open = questions
            questions = []
            for q in open { giveUp(q, say: "no keyboard") }
            consoleNeeded(true)
            finish()
        }
    }

    /// What a key means for the question on screen, else for a keystroke watch.
    func press(_ action: KeyAction, now: Double) {
        guard let q = questions.first else {
            switch action {
            case .character(let bytes): keystroke(bytes)
            case .enter: [UInt8(ascii: "\n")].withUnsafeBytes { keystroke($0) }
            default: break
            }
            return
        }
        switch action {
        case .character(let bytes):
            if entry.append(bytes) {
                notice = nil
            } else {
                notice = "No more than \(entry.capacity) characters: the rest is not taken"
            }
        case .backspace:
            entry.removeLast()
            notice = nil
        case .enter:
            answer(q)
            return
        case .escape:
            logger.notice("prompt: Escape: \(Self.describe(q)) is left to the console")
            questions.removeFirst()
            giveUp(q, say: "Escape")
            consoleNeeded(true)
            entry.clear()
            notice = nil
            if questions.isEmpty { finish() } else { begin(now: now) }
            return
        }
        changed()
    }

    // MARK: Private

    private func keystroke(_ bytes: UnsafeRawBufferPointer) {
        let key = String(decoding: bytes, as: UTF8.self)
        guard let index = keystrokeWatches.firstIndex(where: { $0.keys.map { $0.contains(key) } ?? true }) else { return }
        let w = keystrokeWatches.remove(at: index)
        replyPlymouth(w.ticket, .answer(key))
        stopReadingIfIdle()
    }

    /// When the question on screen came, until a frame shows it (`shown`).
    private(set) var askedAt: Double?

    /// A frame with the current question is on screen: says how long after it came, once.
    func shown(now: Double) {
        guard let at = askedAt else { return }
        askedAt = nil
        logger.info("prompt: on screen \(JSONValue.formatNumber(((now - at) * 10000).rounded() / 10)) ms after it was asked")
    }

    private func answer(_ q: Question) {
        questions.removeFirst()
        let pressed = keys?.lastKeyTime
        switch q.asker {
        case .agent(let ask):
            do {
                try replyAgent(ask, entry)
                logger.info("prompt: answered \(ask.file)")
            } catch {
                logger.warning("prompt: cannot answer \(ask.file): its socket \(ask.socket): \(error)")
            }
        case .plymouth(let ticket):
            replyPlymouthSecret(ticket, entry)
            logger.info("prompt: answered Plymouth's \(q.prompt.kind == .question ? "question" : "password request")")
        }
        if let pressed {
            let ms = ((SystemCalls.monotonicSeconds() - pressed) * 10000).rounded() / 10
            logger.info("prompt: answer sent \(JSONValue.formatNumber(ms)) ms after Enter went down")
        }
        entry.clear()
        notice = nil
        if questions.isEmpty { finish() } else { begin(now: nil) }
    }

    /// The asker is told no one here answers: Plymouth's client gets "no answer" and asks on
    /// its own; an agent's question is left to the other agents (the console's).
    private func giveUp(_ q: Question, say reason: String) {
        switch q.asker {
        case .agent(let ask): leftToOthers.insert(ask.file)
        case .plymouth(let ticket): replyPlymouth(ticket, .noAnswer)
        }
        logger.info("prompt: \(Self.describe(q)) not answered here (\(reason))")
    }

    private func begin(now: Double?) {
        entry.clear()
        askedAt = now
        // A question that can be typed here brings the skeleton back over a console shown before.
        if keys?.count ?? 0 > 0 { consoleNeeded(false) }
        notice = (keys?.count ?? 0) == 0 ? "Waiting for a keyboard" : nil
        if let now, keys?.count ?? 0 == 0, keyboardDeadline == nil { keyboardDeadline = now + Self.keyboardWait }
        changed()
    }

    private func readKeys(now: Double) {
        if keys == nil { keys = openKeys() }
        if keys?.count ?? 0 == 0, keyboardDeadline == nil, !questions.isEmpty { keyboardDeadline = now + Self.keyboardWait }
    }

    private func keyboardsChanged(now: Double) {
        if keys?.count ?? 0 > 0 {
            keyboardDeadline = nil
            if notice == "Waiting for a keyboard" { notice = nil }
        } else if !questions.isEmpty {
            notice = "Waiting for a keyboard"
            keyboardDeadline = now + Self.keyboardWait
        }
        changed()
    }

    private func drop(_ matching: (Question) -> Bool) {
        let wasCurrent = questions.first.map(matching) ?? false
        questions.removeAll(where: matching)
        guard wasCurrent else { return }
        if questions.isEmpty { finish() } else { begin(now: nil) }
    }

    private func stopReadingIfIdle() {
        if questions.isEmpty && keystrokeWatches.isEmpty { finish() }
    }

    /// No question open: the keyboard is let go, what was typed wiped, and the screen redrawn.
    private func finish() {
        entry.clear()
        notice = nil
        keyboardDeadline = nil
        if questions.isEmpty && keystrokeWatches.isEmpty {
            keys?.close()
            keys = nil
            if holdsSecret {
                SecretGuard.release()
                holdsSecret = false
            }
        }
        changed()
    }

    static func describe(_ q: Question) -> String {
        switch q.asker {
        case .agent(let ask): return "\(ask.file) (\"\(ask.message)\")"
        case .plymouth: return "Plymouth's \(q.prompt.kind == .question ? "question" : "password request") (\"\(q.prompt.message)\")"
        }
    }
}
