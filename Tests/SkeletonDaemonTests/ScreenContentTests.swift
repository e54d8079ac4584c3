@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import Testing

/// What the screen shows, as a value: overrides, content and the roles' message and progress
/// combined without a daemon.
@Suite struct ScreenContentTests {
    static func layout(_ root: String) throws -> Layout {
        let text = #"{"name": "t", "canvas": {"width": 200, "height": 100}, "root": {"kind": "view", "children": [\#(root)]}}"#
        guard case .success(let layout) = LayoutLoader.load(text: Array(text.utf8), file: "t.json") else { throw HarnessError("layout") }
        return layout
    }

    static let withRoles = #"{"kind": "label", "id": "status", "role": "message", "frame": [0, 0, 200, 20], "text": "a"}, {"kind": "progress", "id": "bar", "frame": [0, 40, 200, 10]}"#
    static let without = #"{"kind": "label", "id": "title", "frame": [0, 0, 200, 20], "text": "b"}"#

    @Test func overridesInForceCombineUnlessReset() throws {
        var screen = ScreenContent()
        let base = SkeletonLook(layoutName: "t", layout: try Self.layout(Self.without))
        var tinted = PresentationOverrides()
        tinted.tint = Color(red: 255, green: 0, blue: 0)
        screen.shows(screen.look(base, adding: tinted, reset: false))
        var slow = PresentationOverrides()
        slow.duration = 3
        let both = screen.look(base, adding: slow, reset: false)
        #expect(both.overrides.tint == tinted.tint && both.overrides.duration == 3)
        let reset = screen.look(base, adding: slow, reset: true)
        #expect(reset.overrides.tint == nil && reset.overrides.duration == 3)
    }

    @Test func keptRolesReachLaterLayoutsAndIdsOnlyTheirNodes() throws {
        var screen = ScreenContent()
        let first = SkeletonLook(layoutName: "a", layout: try Self.layout(Self.without))
        // Kept while the layout shown has no node of those roles: no error, and nothing shown.
        let kept = UpdateRequest(message: "Checking disks", progress: .fraction(0.4), keep: true)
        #expect(try ScreenContent.change(kept, for: first.layout).get().isEmpty)
        screen.keep(kept)
        var titled = screen.look(first, adding: PresentationOverrides(), reset: false)
        titled.content = titled.content.merging(try ScreenContent.change(UpdateRequest(content: LayoutContent(texts: ["title": "Hello"])), for: titled.layout).get())
        screen.updates(titled)
        // The next layout has the roles: it shows what was kept; "title" is not one of its nodes.
        let next = screen.look(SkeletonLook(layoutName: "b", layout: try Self.layout(Self.withRoles)), adding: PresentationOverrides(), reset: false)
        #expect(next.content == LayoutContent(texts: ["status": "Checking disks"], values: ["bar": .fraction(0.4)]))
    }

    @Test func anUpdateWithoutKeepNamesTheMissingRole() throws {
        let layout = try Self.layout(Self.without)
        guard case .failure(let error) = ScreenContent.change(UpdateRequest(message: "x"), for: layout) else {
            Issue.record("accepted")
            return
        }
        #expect(error.message == "\"message\": the layout has no label with \"role\": \"message\"")
    }
}

/// Plymouth's requests and psplash's lines become the socket's commands.
@Suite struct SplashAdapterTests {
    @Test func psplashLinesAreCommands() {
        #expect(PsplashAdapter.command(for: .progress(40)) == .update(UpdateRequest(progress: .fraction(0.4), keep: true)))
        #expect(PsplashAdapter.command(for: .message("fsck")) == .update(UpdateRequest(message: "fsck", keep: true)))
        #expect(PsplashAdapter.command(for: .quit) == .hide(HideRequest()))
    }

    @Test func plymouthRequestsAreCommandsOrAnswers() {
        var adapter = PlymouthAdapter(socket: "@/x", logger: Logger(level: .error) { _ in })
        func command(_ request: PlymouthRequest) -> Command? {
            if case .command(let c, _) = adapter.action(for: request) { return c }
            return nil
        }
        func answer(_ request: PlymouthRequest) -> PlymouthReply? {
            if case .answer(let a) = adapter.action(for: request) { return a }
            return nil
        }
        let text = { (s: String) in Array(s.utf8) }
        #expect(command(PlymouthRequest(command: .systemUpdate, argument: text("95"))) == .update(UpdateRequest(progress: .fraction(0.95), keep: true)))
        #expect(command(PlymouthRequest(command: .showMessage, argument: text("Hi"))) == .update(UpdateRequest(message: "Hi", keep: true)))
        #expect(command(PlymouthRequest(command: .hideMessage, argument: text("Hi"))) == .update(UpdateRequest(message: "", keep: true)))
        #expect(command(PlymouthRequest(command: .deactivate)) == .deactivate)
        #expect(command(PlymouthRequest(command: .reactivate)) == .reactivate)
        #expect(command(PlymouthRequest(command: .quit, argument: [1])) == .hide(HideRequest(transition: TransitionSpec.none, retain: true)))
        #expect(command(PlymouthRequest(command: .showSplash)) == .show(ShowRequest()))
        if case .prompt(let prompt) = adapter.action(for: PlymouthRequest(command: .password, argument: text("Passphrase"))) {
            #expect(prompt == Prompt(kind: .password, message: "Passphrase"))
        } else {
            Issue.record("a password request is not a prompt")
        }
        #expect(answer(PlymouthRequest(command: .cachedPassword)) == .noAnswer)
        #expect(answer(PlymouthRequest(command: .systemUpdate, argument: text("101"))) == .ack)
        #expect(answer(PlymouthRequest(command: .changeMode, argument: text("updates"))) == .ack)
        #expect(adapter.notes.mode == "updates")
        // The way down is the daemon's own shutdown.
        #expect(command(PlymouthRequest(command: .changeMode, argument: text("shutdown"))) == .shutdown(ShutdownRequest(mode: .poweroff)))
        #expect(command(PlymouthRequest(command: .changeMode, argument: text("reboot"))) == .shutdown(ShutdownRequest(mode: .reboot)))
        #expect(adapter.notes.mode == "reboot")
        #expect(answer(PlymouthRequest(command: .unknown(0x5A))) == .nak)
    }
}

/// The status reply is written and read by one type.
@Suite struct StatusReplyTests {
    @Test func aStatusComesBackAsItWasWritten() throws {
        let d = try SteppedDaemon(layouts: ["splash": ContentCommandTests.splash], start: "splash", settings: #"{"plymouth": {"listen": false}}"#)
        d.step(to: 101)
        let client = try d.connect()
        #expect(d.request(client, #"{"command": "update", "progress": 0.5, "content": {"status": {"text": "Hello"}}}"#)?["ok"] == true)
        let reply = try #require(d.request(client, #"{"command": "status"}"#))
        let status = try StatusReply(json: reply)
        #expect(status.state == .showing && status.backend == "memory" && status.layout == "splash")
        #expect(status.content == LayoutContent(texts: ["status": "Hello"], values: ["bar": .fraction(0.5)]))
        #expect(status.outputs.count == 1 && status.outputs[0].size == "200x100" && status.outputs[0].mode == "200x100")
        var written = try StatusReply(json: reply).fields
        written["ok"] = true
        #expect(JSONValue.object(written) == reply)
        var broken = reply
        if case .object(var o) = broken { o["framesDrawn"] = "many"; broken = .object(o) }
        #expect(throws: StatusDecodingError.self) { try StatusReply(json: broken) }
        do { _ = try StatusReply(json: broken) } catch {
            #expect(error.description.hasPrefix("framesDrawn: expected an integer"), "\(error)")
        }
    }
}
