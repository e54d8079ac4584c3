import Foundation
@testable import SkeletonDaemon
import SkeletonLayout
import Testing

/// `hide --after-console` (issue 48, item 7): the skeleton stays until the text console shows
/// something new (a getty's prompt, after its start cleared the kernel's text) and goes then, so
/// that no cleared console shows between them; at the wait's limit it goes anyway. As a value,
/// and through a daemon whose console is a file.
@Suite struct ConsoleWaitTests {
    let look = SkeletonLook(layoutName: "a", layout: TestLayouts.simple)
    let fade = TransitionSpec.crossDissolve(duration: 0.25)

    static func cells(_ text: String) -> [UInt8] {
        var cells = [UInt8](repeating: 0x20, count: 80 * 25)
        cells.replaceSubrange(0..<text.utf8.count, with: Array(text.utf8))
        return cells
    }

    let blank = Self.cells("")
    let kernelText = Self.cells("[    1.2] kernel: something happened")

    func withoutLog(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .log = $0 { return false } else { return true } }
    }

    @Test func theSkeletonStaysUntilTheConsoleShowsSomethingThenFades() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        #expect(screen.hideAfterConsole(transition: fade, limit: 10, shownAtHide: blank, now: 1)
                == [.log(.info, "hide: once the console shows something new (at most 10 s)")])
        #expect(screen.session.state == .showing)
        #expect(screen.consoleWait?.due == 1.05, "looked at every 0.05 s")
        #expect(screen.consoleLooked(showing: blank, now: 1.05).isEmpty)
        #expect(screen.session.state == .showing, "a blank console: the skeleton stays")
        #expect(screen.consoleWait?.due == 1.1)
        let effects = screen.consoleLooked(showing: Self.cells("debian login:"), now: 3.5)
        #expect(effects.first == .log(.info, "hide: the console shows something new after 2.5 s"))
        #expect(withoutLog(effects) == [.fadeToConsole])
        #expect(screen.session.state == .hiding)
        #expect(screen.consoleWait == nil)
    }

    /// The kernel's text on the console: the getty's start clears it, then writes its prompt;
    /// the skeleton stays over both and goes once the prompt is there.
    @Test func textThatWasThereOrAClearedScreenIsNothingNew() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.hideAfterConsole(transition: .none, limit: 10, shownAtHide: kernelText, now: 1)
        #expect(screen.consoleLooked(showing: kernelText, now: 1.05).isEmpty, "the text it showed at the hide")
        #expect(screen.consoleLooked(showing: blank, now: 1.1).isEmpty, "the getty's clear")
        #expect(screen.session.state == .showing)
        let effects = screen.consoleLooked(showing: Self.cells("debian login:"), now: 1.5)
        #expect(effects.first == .log(.info, "hide: the console shows something new after 0.5 s"))
        #expect(screen.session.state == .idle)
    }

    @Test func aConsoleThatCannotBeReadAnyMoreEndsTheWait() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.hideAfterConsole(transition: .none, limit: 10, shownAtHide: blank, now: 1)
        #expect(!screen.consoleLooked(showing: nil, now: 1.05).isEmpty)
        #expect(screen.session.state == .idle)
    }

    @Test func atItsLimitTheSkeletonGoesAnyway() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.hideAfterConsole(transition: .none, limit: 10, shownAtHide: kernelText, now: 1)
        #expect(screen.consoleLooked(showing: kernelText, now: 10.99).isEmpty)
        let effects = screen.consoleLooked(showing: kernelText, now: 11)
        #expect(effects.first == .log(.info, "hide: the console showed nothing new within 10 s; hidden anyway"))
        #expect(screen.session.state == .idle)
        #expect(withoutLog(effects).contains(.closeDisplay))
    }

    @Test func aShowOrTheWayDownEndsTheWait() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.hideAfterConsole(transition: .none, limit: 10, shownAtHide: blank, now: 1)
        _ = screen.show(look, delay: 0, transition: .none, now: 2)
        #expect(screen.consoleWait == nil, "shown again: nothing waits to hide")
        #expect(screen.consoleLooked(showing: kernelText, now: 3).isEmpty)
        #expect(screen.session.state == .showing)
        _ = screen.hideAfterConsole(transition: .none, limit: 10, shownAtHide: blank, now: 4)
        _ = screen.goDown(.poweroff)
        #expect(screen.consoleLooked(showing: kernelText, now: 5).isEmpty, "going down: the shutdown layout stays")
        #expect(screen.consoleWait == nil)
    }

    @Test func nothingWaitsWhileNothingShows() {
        var screen = Screen()
        #expect(screen.hideAfterConsole(transition: .none, limit: 10, shownAtHide: blank, now: 1).isEmpty)
        #expect(screen.consoleWait == nil)
    }

    /// Through a daemon: the reply comes at once (`waitingForConsole`), the skeleton stays while
    /// the console's screen holds only blanks, and goes the turn after a prompt is written to it.
    /// A daemon whose console is a file holding `screen`, showing, asked to hide after the
    /// console: the daemon, its client and the reply.
    func hideAfterConsole(on screen: Data, at screenFile: String) throws -> (SteppedDaemon, any SteppedClient, JSONValue?) {
        try screen.write(to: URL(fileURLWithPath: screenFile))
        let d = try SteppedDaemon(layouts: ["simple": TestLayouts.simpleText], start: "simple",
                                  console: TextConsole(screenPath: screenFile, terminalPath: screenFile))
        d.step(to: d.clock.now + 0.2)
        let client = try d.connect()
        return (d, client, d.request(client, #"{"command": "hide", "afterConsole": true, "transition": {"kind": "none"}}"#))
    }

    func temporaryScreenFile() -> String {
        FileManager.default.temporaryDirectory.path + "/vcs-\(UUID().uuidString.prefix(8))"
    }

    @Test func aDaemonHidesTheTurnAfterTheConsoleShowsAPrompt() throws {
        let screenFile = temporaryScreenFile()
        defer { try? FileManager.default.removeItem(atPath: screenFile) }
        let (d, client, reply) = try hideAfterConsole(on: Data(repeating: 0x20, count: 80 * 25), at: screenFile)
        #expect(reply?["waitingForConsole"] == true, "\(String(describing: reply))")
        d.step(to: d.clock.now + 3)
        #expect(d.request(client, #"{"command": "status"}"#)?["state"] == "showing", "a blank console: the skeleton stays")
        var prompt = Data(repeating: 0x20, count: 80 * 25)
        prompt.replaceSubrange(0..<12, with: Array("debian login".utf8))
        try prompt.write(to: URL(fileURLWithPath: screenFile))
        d.step(to: d.clock.now + 0.1)
        #expect(d.request(client, #"{"command": "status"}"#)?["state"] == "idle", "hidden once the prompt is there")
        #expect(d.logContains("hide: the console shows something new after 3"), "\(d.lines.all)")
    }

    /// A console that cannot be read: the hide happens at once, and the journal says why.
    @Test func aConsoleThatCannotBeReadIsNoReasonToWait() throws {
        let screenFile = temporaryScreenFile()
        let (d, client, reply) = try hideAfterConsole(on: Data("kernel: something happened".utf8), at: screenFile)
        #expect(reply?["waitingForConsole"] == true, "\(String(describing: reply))")
        _ = d.request(client, #"{"command": "show"}"#)
        try FileManager.default.removeItem(atPath: screenFile)
        let again = d.request(client, #"{"command": "hide", "afterConsole": true, "transition": {"kind": "none"}}"#)
        #expect(again?["hidden"] == true, "\(String(describing: again))")
        #expect(d.logContains("hide: not waiting for the console: \(screenFile) cannot be read"), "\(d.lines.all)")
        d.step(to: d.clock.now + 0.1)
        #expect(d.request(client, #"{"command": "status"}"#)?["state"] == "idle")
    }
}
