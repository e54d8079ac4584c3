import Foundation
@testable import SkeletonDaemon
import SkeletonLayout
import Testing

/// A layout not loaded yet is read and checked off the loop: the command naming it waits, the
/// commands with an effect after it wait behind it whoever sent them, and they take effect in
/// the order they came; `ping`, `status` and `tree` are answered meanwhile.
@Suite struct WaitingCommandTests {
    static func layout(_ colour: String) -> String {
        """
        {"name": "c", "canvas": {"width": 200, "height": 100, "background": "\(colour)"},
         "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
         "root": {"kind": "view", "skeletonable": false}}
        """
    }

    func daemon() throws -> SteppedDaemon {
        let d = try SteppedDaemon(layouts: ["white": Self.layout("#FFFFFF"), "red": Self.layout("#FF0000"), "broken": "{\"name\": 1}"],
                                  start: "white", holdingWork: true)
        d.step(to: 101)
        return d
    }

    @Test func aShowWaitsForItsLayoutAndAHideFromAnotherClientWaitsBehindIt() throws {
        let d = try daemon()
        let a = try d.connect(), b = try d.connect(), watcher = try d.connect()
        a.send(#"{"command": "show", "layout": "red", "id": 1}"# + "\n")
        #expect(d.reply(a) == nil, "waits while red.json is read")
        b.send(#"{"command": "hide", "transition": {"kind": "none"}, "id": 2}"# + "\n")
        #expect(d.reply(b) == nil, "waits behind the show")
        #expect(d.request(watcher, #"{"command": "ping"}"#)?["pong"] == true)
        let meanwhile = d.request(watcher, #"{"command": "status"}"#)
        #expect(meanwhile?["layout"] == "white")
        #expect(meanwhile?["state"] == "showing")
        #expect(d.screen[100, 50] & 0xFFFFFF == 0xFFFFFF)

        d.work.release()
        let shown = d.reply(a)
        #expect(shown?["id"] == 1)
        #expect(shown?["layout"] == "red", "\(String(describing: shown))")
        let hidden = d.reply(b)
        #expect(hidden?["id"] == 2)
        #expect(hidden?["state"] == "idle", "the hide came second and wins")
        #expect(d.request(watcher, #"{"command": "status"}"#)?["state"] == "idle")
    }

    @Test func aLayoutThatCannotBeLoadedIsRefusedInItsTurnAndTheNextCommandsRun() throws {
        let d = try daemon()
        let a = try d.connect()
        a.send(#"{"command": "show", "layout": "broken", "id": 1}"# + "\n" + #"{"command": "update", "tint": "alizarin", "id": 2}"# + "\n")
        #expect(d.reply(a) == nil)
        d.work.release()
        let refused = d.reply(a)
        #expect(refused?["id"] == 1)
        #expect(refused?["error"]?["code"] == "invalid_layout")
        #expect(refused?["error"]?["message"]?.stringValue?.contains("broken.json") == true, "\(String(describing: refused))")
        let updated = d.reply(a)
        #expect(updated?["id"] == 2)
        #expect(updated?["ok"] == true)
    }

    /// A reload reads the kept layouts again off the loop: it waits for that, and the layout in
    /// force changes in its turn; SIGHUP goes the same way.
    @Test func aReloadReadsTheLayoutsAgainOffTheLoop() throws {
        let d = try SteppedDaemon(layouts: ["white": Self.layout("#FFFFFF")], start: "white", storage: .disk, holdingWork: true)
        d.step(to: 101)
        try Self.layout("#00FF00").write(toFile: d.directory + "/layouts/white.json", atomically: true, encoding: .utf8)
        let a = try d.connect(), other = try d.connect()
        a.send(#"{"command": "reload", "id": 1}"# + "\n")
        #expect(d.reply(a) == nil, "waits while the layouts are read again")
        #expect(d.request(other, #"{"command": "ping"}"#)?["pong"] == true)
        #expect(d.screen[100, 50] & 0xFFFFFF == 0xFFFFFF)
        d.work.release()
        #expect(d.reply(a)?["reloaded"] == true)
        d.step(to: d.clock.now + 1)
        #expect(d.screen[100, 50] & 0xFFFFFF == 0x00FF00)

        try Self.layout("#0000FF").write(toFile: d.directory + "/layouts/white.json", atomically: true, encoding: .utf8)
        d.daemon.handleSignal(SIGHUP)
        d.step(to: d.clock.now + 1)
        #expect(d.screen[100, 50] & 0xFFFFFF == 0x00FF00, "read off the loop first")
        d.work.release()
        d.step(to: d.clock.now + 1)
        #expect(d.screen[100, 50] & 0xFFFFFF == 0x0000FF)
    }

    /// Past `Daemon.waitingLimit` commands waiting, clients are not read until some have run:
    /// nothing is lost, every reply comes in order.
    @Test func aPipelineOfShowsBehindALayoutBeingReadIsHeldAtTheLimitAndAllAnsweredInOrder() throws {
        let d = try daemon()
        let a = try d.connect()
        let count = Daemon.waitingLimit + 44
        var lines = ""
        for i in 0..<count { lines += #"{"command": "show", "layout": "\#(i % 2 == 0 ? "red" : "white")", "id": \#(i)}"# + "\n" }
        a.send(lines)
        for _ in 0..<40 where d.events.wakes(at: d.clock.now) { d.daemon.turn() }
        #expect(d.daemon.backlog.commands.count == Daemon.waitingLimit, "held at the limit")
        #expect(d.daemon.inlets.server?.paused == true)
        d.work.release()
        var ids: [Double] = []
        for _ in 0..<count {
            guard let reply = d.reply(a, maxTurns: 200) else { break }
            ids.append(reply["id"]?.numberValue ?? -1)
        }
        #expect(ids == (0..<count).map(Double.init))
        #expect(d.daemon.inlets.server?.paused == false)
        #expect(d.request(a, #"{"command": "status"}"#)?["layout"] == "white")
    }
}
