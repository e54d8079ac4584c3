@testable import SkeletonDaemon
import SkeletonContent
import SkeletonLayout
import SkeletonPicture
import SkeletonPrompt
import SkeletonProtocol
import SkeletonRender
import SkeletonSystem
import Testing

/// The boot's questions on the screen as a value, with no daemon: a Plymouth client's question
/// or keystroke watch and the password agent's asks go into `Screen`, keys through the
/// `PromptDesk`, and the outputs in memory show the question over the skeleton. What is typed,
/// what is answered and what is left to the console, when nobody can type.
@Suite(.serialized) struct QuestionsOnScreenTests {
    static let size = PromptTests.size
    static let message = PromptTests.message
    static let password = Prompt(kind: .password, message: message)
    /// A layout with a place of its own for questions.
    static let withPromptView = """
        {"name": "p", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "presentation": {"style": "solid", "animated": false},
         "root": {"kind": "view", "children": [{"kind": "image", "frame": [10, 10, 40, 40]},
           {"kind": "view", "id": "ask", "role": "prompt", "frame": [60, 10, 130, 60]}]}}
        """

    static func ticket(_ serial: Int) -> PlymouthTicket { PlymouthTicket(connection: FileDescriptor(rawValue: 7), serial: serial) }

    func onOutputs(keyboards: Int = 1, outputs: [String] = ["memory"]) throws -> ScreenOnOutputs {
        let layouts = TransitionEndTests.layouts.merging(["p": Self.withPromptView]) { a, _ in a }
        let s = try ScreenOnOutputs(layouts: layouts, start: "a", outputs: outputs, size: Self.size, sprites: ContentSprites())
        s.keys.count = keyboards
        return s
    }

    /// Whether `output` shows `layout` with `picture` over it; writes both pictures when not.
    func shows(_ s: ScreenOnOutputs, _ picture: PromptPicture?, layout: String = "a", output: String? = nil) throws -> Bool {
        let want = try s.image(layout)
        if let picture { PromptOverlay(outputSize: Self.size, sprites: ContentSprites()).draw(picture, region: want.canvas.bounds, into: want.canvas) }
        let got = s.buffer(of: output)
        guard got.pixels != want.pixels else { return true }
        try? ImageFile.write(got.canvas, to: "/tmp/question-actual.png", format: .png)
        try? ImageFile.write(want.canvas, to: "/tmp/question-expected.png", format: .png)
        return false
    }

    @Test func aWrongPassphraseAskedAgainShowsTheNewMessage() throws {
        let s = try onOutputs()
        #expect(s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100) == nil, "answered when typed")
        s.type("wrong", now: 100.1)
        s.press(.enter, now: 100.2)
        #expect(s.sent == [.answer(.plymouth(Self.ticket(1)), "wrong")])
        let again = "No key available with this passphrase. Please unlock disk cryptroot:"
        s.askPlymouth(Prompt(kind: .password, message: again), ticket: Self.ticket(2), now: 100.3)
        s.draw(at: 100.3)
        #expect(try shows(s, PromptPicture(message: again)))
    }

    @Test func aQuestionShowsWhatIsTyped() throws {
        let s = try onOutputs()
        s.askPlymouth(Prompt(kind: .question, message: "Continue? [y/N]", echo: true), ticket: Self.ticket(1), now: 100)
        s.type("y", now: 100.1)
        s.draw(at: 100.1)
        #expect(try shows(s, PromptPicture(message: "Continue? [y/N]", text: "y")))
        s.press(.enter, now: 100.2)
        #expect(s.sent == [.answer(.plymouth(Self.ticket(1)), "y")])
    }

    @Test func aKeystrokeWatchGetsItsKey() throws {
        let s = try onOutputs()
        #expect(s.watchKeystroke("cC", ticket: Self.ticket(1), now: 100) == nil)
        s.draw(at: 100.05)
        // No prompt for a watch; a key it does not watch is not its answer.
        #expect(try shows(s, nil))
        s.type("x", now: 100.1)
        #expect(s.sent.isEmpty)
        s.type("C", now: 100.2)
        #expect(s.sent == [.reply(Self.ticket(1), .answer("C"))])
        #expect(s.keys.closed)
    }

    @Test func escapeLeavesTheQuestionToTheConsole() throws {
        let s = try onOutputs()
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100)
        s.type("abc", now: 100.1)
        s.press(.escape, now: 100.2)
        #expect(s.sent == [.reply(Self.ticket(1), .noAnswer)])
        #expect(s.log.contains("prompt: Escape: Plymouth's password request (\"\(Self.message)\") is left to the console"))
        #expect(s.log.contains("prompt: the console is shown for the question left to it"))
        #expect(s.screen.steppedAsideForQuestions)
        #expect(s.released, "the display is let go to the console")
        // A question that can be typed brings the skeleton back over the console.
        s.askPlymouth(Self.password, ticket: Self.ticket(2), now: 100.3)
        #expect(!s.released && !s.screen.steppedAsideForQuestions)
        #expect(s.picture == PromptPicture(message: Self.message))
        #expect(s.desk.entry.isEmpty, "what was typed is wiped")
    }

    @Test func withNoKeyboardTheQuestionWaitsThenGetsNoAnswer() throws {
        let s = try onOutputs(keyboards: 0)
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100)
        s.draw(at: 100.05)
        #expect(try shows(s, PromptPicture(message: Self.message, notice: "Waiting for a keyboard")))
        #expect(s.screen.questions.deadline == 100 + QuestionQueue.keyboardWait)
        s.change { $0.advance(to: 100 + QuestionQueue.keyboardWait - 0.1) }
        #expect(s.sent.isEmpty)
        s.change { $0.advance(to: 100 + QuestionQueue.keyboardWait) }
        #expect(s.sent == [.reply(Self.ticket(1), .noAnswer)])
        #expect(s.log.contains("prompt: no keyboard within 3 s; the questions are left to the console"))
        #expect(s.screen.steppedAsideForQuestions)
    }

    @Test func aKeyboardUnpluggedMidPassphraseWaitsForAnother() throws {
        let s = try onOutputs()
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100)
        s.type("abc", now: 100.1)
        s.keyboardsChanged(to: 0, now: 100.2)
        s.draw(at: 100.2)
        #expect(try shows(s, PromptPicture(message: Self.message, bullets: 3, notice: "Waiting for a keyboard")))
        s.change { $0.advance(to: 100.2 + QuestionQueue.keyboardWait) }
        #expect(s.sent == [.reply(Self.ticket(1), .noAnswer)])
        #expect(s.picture == nil)
    }

    @Test func aQuestionDuringADissolveIsDrawnOverIt() throws {
        let s = try onOutputs()
        s.perform(.show(ShowRequest(layout: "b", transition: .crossDissolve(duration: 1))), now: 100)
        s.draw(at: 100.3)
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100.3)
        s.draw(at: 100.4)
        // Mid-dissolve: the panel is there (its colour at its lower left), the rest dimmed.
        let panel = PromptOverlay(outputSize: Self.size, sprites: nil).panel
        #expect(s.pixel(panel.x + 4, panel.maxY - 4) == 0xFA_FAFA)
        #expect(s.pixel(2, 2) == 0x6E_6E6E, "white dimmed")
        s.draw(at: 101.4)
        #expect(try shows(s, PromptPicture(message: Self.message), layout: "b"))
    }

    @Test func aLayoutsPromptViewHoldsTheQuestionWithNothingDimmed() throws {
        let s = try onOutputs()
        s.perform(.show(ShowRequest(layout: "p", transition: TransitionSpec.none)), now: 100)
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100)
        s.type("ab", now: 100.1)
        s.draw(at: 100.1)
        let image = try s.image("p")
        let place = try #require(FrameRenderer(layout: try s.layout("p"), outputSize: Self.size).layout.root.frame(ofNodeWithID: "ask"))
        let overlay = PromptOverlay(outputSize: Self.size, place: place, sprites: ContentSprites())
        overlay.draw(PromptPicture(message: Self.message, bullets: 2), region: image.canvas.bounds, into: image.canvas)
        #expect(overlay.panel == PixelRect(enclosing: place))
        let same = s.pixels() == image.pixels
        #expect(same, "the skeleton with the question in its prompt view")
        // Outside the view, the skeleton as it is: not dimmed.
        #expect(s.pixel(2, 2) == 0xFF_FFFF)
    }

    @Test func everyOutputShowsTheQuestion() throws {
        let s = try onOutputs(outputs: ["HDMI-A-1", "DP-1"])
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100)
        s.type("abcd", now: 100.1)
        s.draw(at: 100.1)
        #expect(try shows(s, PromptPicture(message: Self.message, bullets: 4), output: "HDMI-A-1"))
        #expect(try shows(s, PromptPicture(message: Self.message, bullets: 4), output: "DP-1"))
    }

    @Test func whileLentToAnAppQuestionsGetNoAnswerAtOnce() throws {
        let s = try onOutputs()
        s.perform(.deactivate, now: 100)
        #expect(s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100) == .noAnswer, "an app has the display")
        #expect(s.watchKeystroke(nil, ticket: Self.ticket(2), now: 100) == .noAnswer)
        #expect(s.desk.keys == nil, "no keyboard was opened")
        s.perform(.reactivate, now: 100.1)
        #expect(s.askPlymouth(Self.password, ticket: Self.ticket(3), now: 100.1) == nil, "the display is the skeleton's again")
        #expect(s.screen.questions.current?.asker == .plymouth(Self.ticket(3)))
    }

    @Test func whileHiddenQuestionsGetNoAnswerAtOnce() throws {
        let s = try onOutputs()
        s.perform(.hide(HideRequest(transition: TransitionSpec.none)), now: 100)
        #expect(s.displayHeld, "outputs in memory stay open: the state alone refuses")
        #expect(s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100.1) == .noAnswer)
        #expect(s.log.contains("plymouth: a password request (\"\(Self.message)\") while the skeleton does not show: no answer, the client asks on its own"))
        #expect(s.watchKeystroke(nil, ticket: Self.ticket(2), now: 100.1) == .noAnswer)
        s.offer([PasswordAsk(file: "ask.1", socket: "sck.1", message: Self.message)], now: 100.1)
        #expect(s.screen.questions.open.isEmpty, "the agent's ask waits for the next show")
        #expect(s.sent.isEmpty && s.desk.keys == nil, "no keyboard was opened")
    }

    @Test func duringAHidesFadeQuestionsGetNoAnswerAtOnce() throws {
        let s = try onOutputs()
        s.perform(.hide(HideRequest(transition: .crossDissolve(duration: 1))), now: 100)
        #expect(!s.released, "the display is held while the skeleton fades out")
        #expect(s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100.5) == .noAnswer)
        #expect(s.screen.questions.open.isEmpty)
    }

    @Test func aClientThatLeavesTakesItsQuestionAway() throws {
        let s = try onOutputs()
        s.askPlymouth(Self.password, ticket: Self.ticket(1), now: 100)
        s.type("ab", now: 100.1)
        s.change { $0.plymouthAbandoned(Self.ticket(1)) }
        s.draw(at: 100.2)
        #expect(try shows(s, nil))
        #expect(s.keys.closed)
        #expect(s.desk.entry.isEmpty)
    }

    @Test func theAgentsAsksComeOnScreenInTurnAndEachOnce() throws {
        let s = try onOutputs()
        let asks = (1...3).map { PasswordAsk(file: "ask.\($0)", socket: "sck.\($0)", message: "Question \($0)") }
        s.offer(asks, now: 100)
        #expect(s.screen.questions.open.map(\.asker) == asks.map { .agent($0) })
        #expect(s.picture == PromptPicture(message: "Question 1"))
        s.offer(asks, now: 100.1)
        #expect(s.screen.questions.open.count == 3, "an ask already open is not taken again")
        s.press(.escape, now: 100.2)
        #expect(s.picture == PromptPicture(message: "Question 2"))
        s.offer(asks, now: 100.3)
        #expect(s.screen.questions.open.count == 2, "an ask left to the console's agent is not taken again")
        s.type("pw", now: 100.4)
        s.press(.enter, now: 100.5)
        #expect(s.sent == [.answer(.agent(asks[1]), "pw")])
    }

    @Test func keysHeldBeyondTheCapAreRefusedAndSaid() throws {
        let s = try onOutputs()
        let ask = PasswordAsk(file: "/run/systemd/ask-password/ask.long", socket: "/run/systemd/ask-password/sck.long", message: Self.message)
        s.offer([ask], now: 100)
        s.type(String(repeating: "a", count: 300), now: 100.1)
        #expect(s.picture == PromptPicture(message: Self.message, bullets: 256, notice: "No more than 256 characters: the rest is not taken"))
        s.press(.enter, now: 100.2)
        #expect(s.sent == [.answer(.agent(ask), String(repeating: "a", count: 256))])
    }
}
