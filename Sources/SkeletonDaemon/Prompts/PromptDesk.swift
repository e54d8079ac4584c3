import SkeletonPrompt
import SkeletonRender
import SkeletonSystem

/// The keyboards a question is typed on and what is typed, for the questions of `Screen`
/// (`QuestionQueue`). The keyboards are read only while a question or a keystroke watch is
/// open; what is typed lives in a `SecretBuffer`, is never logged and is wiped once answered;
/// the process is not dumpable meanwhile (`SecretGuard`).
final class PromptDesk {
    let entry = SecretBuffer(capacity: QuestionQueue.entryCapacity)
    private(set) var keys: (any KeySource)?
    /// This desk keeps the process undumpable while it reads keys.
    private var holdsSecret = false
    /// Opens the keyboards (nil when they cannot be read at all); tests give keys by hand.
    var openKeys: () -> (any KeySource)?

    init(openKeys: @escaping () -> (any KeySource)?) {
        self.openKeys = openKeys
    }

    /// Keyboards read now.
    var keyboards: Int { keys?.count ?? 0 }

    /// Keys are about to be typed: the process is made undumpable and the keyboards opened.
    /// Returns how many there are.
    func readKeys() -> Int {
        if !holdsSecret {
            SecretGuard.hold()
            holdsSecret = true
        }
        if keys == nil { keys = openKeys() }
        return keyboards
    }

    /// No question or watch is open: what was typed is wiped and the keyboards let go.
    func stopReading() {
        entry.clear()
        keys?.close()
        keys = nil
        if holdsSecret {
            SecretGuard.release()
            holdsSecret = false
        }
    }

    /// What `question` shows, with what was typed.
    func picture(of question: QuestionQueue.Question?, notice: String?) -> PromptPicture? {
        guard let question else { return nil }
        let shown = question.prompt.echo || question.prompt.kind == .question
        return PromptPicture(message: question.prompt.message, bullets: shown ? 0 : entry.count,
                             text: shown ? entry.visibleText : nil, notice: notice)
    }

    func addWatches(to list: inout [Watch]) {
        if let keys { list += keys.watches }
    }

    /// A keyboard's descriptor was ready: its keys go to `press`. Nil when `fd` is not one;
    /// else whether the keyboards changed (one plugged in or out).
    func handle(_ fd: FileDescriptor, now: Double, press: (KeyAction) -> Void) -> Bool? {
        guard let keys else { return nil }
        let had = keys.count
        guard keys.handle(fd, now: now, press) else { return nil }
        return keys.count != had
    }

    /// What a key means: for the question on screen (its text goes into `entry`, never into
    /// `screen`), else for a keystroke watch.
    func press(_ action: KeyAction, on screen: inout Screen, now: Double) -> [ScreenEffect] {
        guard screen.questions.current != nil else {
            switch action {
            case .character(let bytes):
                let key = String(decoding: bytes, as: UTF8.self)
                return screen.changeQuestions { $0.keystroke(key) }
            case .enter: return screen.changeQuestions { $0.keystroke("\n") }
            default: return []
            }
        }
        switch action {
        case .character(let bytes):
            let taken = entry.append(bytes)
            return screen.changeQuestions { $0.typed(taken: taken) }
        case .backspace:
            entry.removeLast()
            return screen.changeQuestions { $0.erased() }
        case .enter: return screen.changeQuestions { $0.enter(now: now) }
        case .escape: return screen.changeQuestions { $0.escape(now: now) }
        }
    }

    /// When a held key repeats next.
    var repeatDue: Double? { keys?.repeatDue }

    func repeatIfDue(now: Double, press: (KeyAction) -> Void) {
        keys?.repeatIfDue(now: now, press)
    }
}
