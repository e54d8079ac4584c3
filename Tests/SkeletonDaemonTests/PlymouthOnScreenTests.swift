@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import SkeletonSystem
import Testing

/// Plymouth's requests and psplash's lines on the screen as values, with no daemon and no
/// socket: each goes through its adapter as the daemon sends it (a command to `Screen.perform`,
/// a question to the screen, an answer from what the screen is), and the reply is what
/// Plymouth's client reads. The bytes on a real socket are `PlymouthTests`'.
@Suite struct PlymouthOnScreenTests {
    /// The adapter in front of a screen, as `Daemon.answer` puts it.
    final class Splash {
        let s: ScreenOnOutputs
        let lines = LogLines()
        var adapter: PlymouthAdapter
        let clock = ManualClock(now: 100)
        var now: Double { clock.now }
        private var serial = 0

        init(layouts: [String: String] = PlymouthTests.layouts, start: String = "a") throws {
            s = try ScreenOnOutputs(layouts: layouts, start: start)
            let clock = self.clock
            adapter = PlymouthAdapter(socket: "@/org/freedesktop/plymouthd", logger: lines.logger(clock: { clock.now }))
        }

        /// The reply to `request` given at once; nil: it comes later (a question, a watch).
        func ask(_ request: PlymouthRequest) -> PlymouthReply? {
            serial += 1
            let ticket = Self.ticket(serial)
            switch adapter.action(for: request) {
            case .answer(let reply): return reply
            // Outputs in memory stay open whatever shows.
            case .askScreen(let answer): return answer(ScreenFacts(state: s.screen.session.state, hasDisplay: true))
            case .prompt(let prompt): return s.askPlymouth(prompt, ticket: ticket, now: now)
            case .watchKeystroke(let keys): return s.watchKeystroke(keys, ticket: ticket, now: now)
            case .ignoreKeystroke(let keys):
                s.change { $0.ignoreKeystroke(keys) }
                return .ack
            case .command(let command, let answer):
                let result = s.perform(command, now: now)
                return answer(result.error.map { Reply.error(id: nil, $0) } ?? .ok(id: nil, result.fields ?? [:]))
            }
        }

        /// The ticket of the `serial`th request asked.
        static func ticket(_ serial: Int) -> PlymouthTicket { PlymouthTicket(connection: FileDescriptor(rawValue: 9), serial: serial) }

        func ask(_ command: PlymouthRequest.Command, _ argument: String? = nil) -> PlymouthReply? {
            ask(PlymouthRequest(command: command, argument: argument.map { Array($0.utf8) }))
        }

        func logContains(_ text: String) -> Bool { lines.contain(text) }
    }

    @Test func statusMessagesAndProgressAreKept() throws {
        let p = try Splash()
        #expect(p.ask(.ping) == .ack)
        #expect(p.ask(.update, "fsck") == .ack)
        #expect(p.ask(.showMessage, "Updating firmware, do not switch off") == .ack)
        #expect(p.ask(.showMessage, "second") == .ack)
        #expect(p.ask(.hideMessage, "second") == .ack)
        #expect(p.ask(.systemUpdate, "42") == .ack)
        #expect(p.ask(.systemUpdate, "142") == .ack, "plymouthd acknowledges a bad value too")
        #expect(p.ask(.changeMode, "updates") == .ack)
        let notes = p.adapter.notes
        #expect(notes.status == "fsck")
        #expect(notes.messages == ["Updating firmware, do not switch off"])
        #expect(notes.progress == 42)
        #expect(notes.mode == "updates")
        #expect(notes.socket == "@/org/freedesktop/plymouthd")
        #expect(p.logContains("system-update progress \"142\" is not a whole number from 0 to 100"))
        #expect(p.s.screen.content.message == "Updating firmware, do not switch off", "the message shown is the one left")
    }

    @Test func withoutAKeyboardPromptsGetNoAnswerAndUnknownRequestsANak() throws {
        let p = try Splash()
        p.s.keys.count = 0
        // The prompt waits for a keyboard (QuestionsOnScreenTests types on one), then is left to the client.
        #expect(p.ask(.password, "Passphrase for /dev/sda2:") == nil)
        p.s.change { $0.advance(to: 101) }
        #expect(p.s.sent.isEmpty)
        p.s.change { $0.advance(to: 100 + QuestionQueue.keyboardWait) }
        #expect(p.s.sent == [.reply(Splash.ticket(1), .noAnswer)])
        #expect(p.s.log.contains("prompt: no keyboard within 3 s; the questions are left to the console"))
        #expect(p.ask(.unknown(0x5A)) == .nak)
        #expect(p.ask(.ping) == .ack)
    }

    @Test func aQuestionShowsItsTextAndKeystrokeWatchesEndOnTheirKeys() throws {
        let p = try Splash()
        #expect(p.ask(.question, "Continue? [y/N]") == nil, "answered when typed")
        #expect(p.s.screen.questions.current?.prompt == Prompt(kind: .question, message: "Continue? [y/N]", echo: true))
        p.s.type("y", now: 100)
        p.s.press(.enter, now: 100)
        #expect(p.s.sent == [.answer(.plymouth(Splash.ticket(1)), "y")])
        // An empty argument watches any key; a watch ignored ends with no answer.
        #expect(p.ask(.keystroke, "") == nil)
        #expect(p.ask(.keystroke, "cC") == nil)
        #expect(p.s.screen.questions.keystrokeWatches.map(\.keys) == [nil, "cC"])
        #expect(p.ask(.keystrokeRemove, "cC") == .ack)
        #expect(p.s.sent.last == .reply(Splash.ticket(3), .noAnswer))
        p.s.type("z", now: 100.1)
        #expect(p.s.sent.last == .reply(Splash.ticket(2), .answer("z")))
        #expect(p.ask(.cachedPassword) == .noAnswer, "no password is cached here")
    }

    @Test func quitHidesAndRetainKeepsTheFrame() throws {
        let p = try Splash()
        #expect(p.s.screen.session.state == .showing)
        #expect(p.ask(PlymouthRequest(command: .quit, argument: [1])) == .ack)
        #expect(p.s.screen.session.state == .idle)
        #expect(p.s.screen.session.retained, "quit --retain-splash leaves the frame")
        #expect(p.ask(.showSplash) == .ack)
        #expect(p.s.screen.session.state == .showing)
        #expect(p.ask(PlymouthRequest(command: .quit, argument: [])) == .ack)
        #expect(p.s.screen.session.state == .idle)
        #expect(!p.s.screen.session.retained)
        // Nothing shown: "not running" to `plymouth --ping` (askpass then asks on the console),
        // but the splash comes back at a later show.
        #expect(p.ask(.ping) == .nak)
        #expect(p.ask(.showSplash) == .ack)
        #expect(p.ask(.ping) == .ack)
    }

    @Test func hideSplashAndShowSplashAndDeactivation() throws {
        let p = try Splash()
        #expect(p.ask(.hasActiveVT) == .ack)
        #expect(p.ask(.deactivate) == .ack)
        #expect(p.s.lent && p.s.released)
        // A message while deactivated reaches the layout but does not take the display back.
        #expect(p.ask(.showMessage, "Starting X") == .ack)
        #expect(p.s.screen.content.message == "Starting X")
        #expect(p.s.released, "the display stays let go for the display server")
        #expect(p.ask(.reactivate) == .ack)
        #expect(!p.s.lent && !p.s.released, "taken back at once")
        #expect(p.ask(.hideSplash) == .ack)
        p.s.draw(at: 101)
        #expect(p.s.screen.session.state == .idle)
        #expect(p.ask(.hasActiveVT) == .nak, "nothing shown: no active splash")
        p.clock.set(101)
        #expect(p.ask(.showSplash) == .ack)
        p.s.draw(at: 102)
        #expect(p.s.screen.session.state == .showing)
        #expect(p.s.pixels() == (try p.s.render("a")))
    }

    /// What comes from a client cannot forge a journal line: its text is escaped into one line.
    @Test func aPromptCannotForgeALine() throws {
        let p = try Splash()
        p.s.keys.count = 0
        #expect(p.ask(.password, "x\n<3>FORGED: the disk is on fire") == nil)
        p.s.change { $0.advance(to: 100 + QuestionQueue.keyboardWait) }
        #expect(p.s.sent.count == 1, "no keyboard: no answer")
        let lines = p.s.lines.all.flatMap { $0.split(separator: "\n") }
        #expect(!lines.contains { $0.hasPrefix("<3>") }, "\(lines.filter { $0.contains("FORGED") })")
        #expect(lines.contains { $0.contains("(\"x\\n<3>FORGED: the disk is on fire\")") })
    }

    /// A complaint a client can repeat at will costs a few lines and a count.
    @Test func aThousandUnknownRequestsCostFiveLinesAndACount() throws {
        let p = try Splash()
        for _ in 0..<1000 { #expect(p.ask(.unknown(0x5A)) == .nak) }
        let unknown = { p.lines.all.filter { $0.contains("plymouth: unknown request 90") } }
        #expect(unknown().count == 5)
        p.clock.advance(by: 11)
        #expect(p.ask(.unknown(0x5A)) == .nak)
        #expect(unknown().count == 6)
        #expect(unknown().last?.contains("(995 more like it not logged)") == true, "\(unknown().last ?? "")")
    }

    /// The bar's fill ends at x = 200 * value (the layout of `ContentCommandTests.splash`).
    func fillEnd(_ s: ScreenOnOutputs) -> Int {
        (0..<200).last { s.pixel($0, 65) == 0xFF0000 }.map { $0 + 1 } ?? 0
    }

    @Test func plymouthsSystemUpdateProgressSlidesToItsValue() throws {
        let p = try Splash(layouts: ["splash": ContentCommandTests.splash], start: "splash")
        #expect(fillEnd(p.s) == 0)
        #expect(p.ask(.systemUpdate, "95") == .ack)
        p.s.draw(at: 100)
        p.s.draw(at: 100.25)
        #expect((60...140).contains(fillEnd(p.s)), "half way through the slide: \(fillEnd(p.s))")
        p.s.draw(at: 101)
        #expect(fillEnd(p.s) == 190)
    }

    @Test func psplashsProgressSlidesToItsValue() throws {
        let s = try ScreenOnOutputs(layouts: ["splash": ContentCommandTests.splash], start: "splash")
        let line = try PsplashCommand.parse("PROGRESS 95").get()
        #expect(s.perform(PsplashAdapter.command(for: line), now: 100).error == nil)
        s.draw(at: 100)
        s.draw(at: 100.25)
        #expect((60...140).contains(fillEnd(s)), "half way through the slide: \(fillEnd(s))")
        s.draw(at: 101)
        #expect(fillEnd(s) == 190)
    }

    /// An update that changes nothing on screen owes no frame (a Plymouth message for a layout
    /// without a message node: the boot test counts the frames presented in the real root).
    @Test func aMessageForALayoutWithoutAMessageNodeDrawsNothing() throws {
        let p = try Splash()
        let before = p.s.framesDrawn
        #expect(p.ask(.showMessage, "e2e: checking the disks") == .ack)
        p.s.draw(at: 101)
        #expect(p.s.framesDrawn == before, "no frame for a message nothing shows")
        #expect(p.adapter.notes.messages == ["e2e: checking the disks"])
        #expect(p.s.perform(.update(UpdateRequest(progress: .fraction(0.5), keep: true)), now: 101).error == nil)
        p.s.draw(at: 102)
        #expect(p.s.framesDrawn == before)
    }
}
