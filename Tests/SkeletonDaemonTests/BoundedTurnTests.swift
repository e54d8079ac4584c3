import Foundation
@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonProtocol
import Testing

/// No input source gets more than its share of a loop turn: a flood on Plymouth's socket or
/// psplash's FIFO leaves the control socket answering at the next turn, and nothing is lost.
@Suite struct BoundedTurnTests {
    @Test func aThousandPlymouthQuitShowPairsInOneWrite() throws {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let d = try SteppedDaemon(layouts: PlymouthTests.layouts, start: "a", settings: #"{"plymouth": {"listen": true, "socket": "\#(name)"}}"#)
        let plymouth = try TestClient(path: "@" + name)
        var burst: [UInt8] = []
        for _ in 0..<1000 { burst += PlymouthRequest(command: .quit, argument: [0]).bytes + PlymouthRequest(command: .showSplash).bytes }
        let ping = try d.connect()
        d.daemon.turn()
        plymouth.send(burst)
        var answered = 0, turns = 0
        while answered < 2000 && turns < 1000 {
            ping.send(#"{"command": "ping", "id": \#(turns)}"# + "\n")
            d.daemon.turn()
            turns += 1
            let got = plymouth.readBytes(4000, seconds: 0).count
            #expect(got <= PlymouthServer.requestsPerTurn, "turn \(turns): \(got) Plymouth requests carried out")
            answered += got
            // The ping sent before this turn is answered in it, however much Plymouth still owes.
            #expect(ping.readReply(seconds: 0)?["id"] == .number(Double(turns - 1)))
        }
        #expect(answered == 2000, "every request was answered")
        #expect(turns >= 2000 / PlymouthServer.requestsPerTurn)
        #expect(d.daemon.screen.session.state == .showing, "the last request was a show-splash")
    }

    @Test func aPsplashWriterThatNeverStops() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("psplash-\(UUID().uuidString.prefix(8))").path
        let d = try SteppedDaemon(layouts: ["splash": ContentCommandTests.splash], start: "splash", settings: #"{"psplash": {"fifo": "\#(fifo)"}}"#)
        defer { d.shutdown() }
        // A writer that never blocks: what the full FIFO (64 KiB) does not take is not written.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        #expect(writer >= 0)
        defer { close(writer) }
        let ping = try d.connect()
        d.daemon.turn()
        var lastTaken = -1
        for turn in 0..<300 {
            // The writer keeps the FIFO full; the daemon takes its share.
            for _ in 0..<400 {
                let line = Array("PROGRESS \(turn % 101)\0".utf8)
                guard write(writer, line, line.count) == line.count else { break }
                lastTaken = turn % 101
            }
            ping.send(#"{"command": "ping", "id": \#(turn)}"# + "\n")
            let before = d.daemon.inlets.psplash?.commandsHandled ?? 0
            d.daemon.turn()
            let handled = (d.daemon.inlets.psplash?.commandsHandled ?? 0) - before
            #expect(handled <= PsplashFIFO.commandsPerTurn, "turn \(turn): \(handled) commands")
            #expect(ping.readReply(seconds: 0)?["id"] == .number(Double(turn)), "turn \(turn)")
        }
        d.step(to: d.clock.now + 5)
        // Everything written was carried out, in order: the bar shows the last value written.
        #expect(d.daemon.statusReply(now: d.clock.now).content?.values["bar"] == .fraction(Double(lastTaken) / 100))
    }
}
