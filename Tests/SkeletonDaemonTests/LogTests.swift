import Foundation
@testable import SkeletonDaemon
import SkeletonProtocol
import Testing

/// What comes from outside cannot forge a log line, and a complaint a client can repeat at will
/// costs a few lines and a count.
@Suite struct LogTests {
    func plymouthDaemon() throws -> (SteppedDaemon, TestClient) {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let d = try SteppedDaemon(layouts: PlymouthTests.layouts, start: "a", settings: #"{"plymouth": {"listen": true, "socket": "\#(name)"}}"#)
        return (d, try TestClient(path: "@" + name))
    }

    @Test func aPromptCannotForgeALine() throws {
        let (d, p) = try plymouthDaemon()
        p.send(PlymouthRequest(command: .password, argument: Array("x\n<3>FORGED: the disk is on fire".utf8)).bytes)
        // No keyboard here: after the wait for one, "no answer".
        d.step(to: d.clock.now + QuestionQueue.keyboardWait + 0.1)
        #expect(p.readBytes(1, seconds: 0) == PlymouthReply.noAnswer.bytes)
        let lines = d.lines.all.flatMap { $0.split(separator: "\n") }
        #expect(!lines.contains { $0.hasPrefix("<3>") }, "\(lines.filter { $0.contains("FORGED") })")
        #expect(lines.contains { $0.contains("(\"x\\n<3>FORGED: the disk is on fire\")") })
    }

    @Test func aThousandUnknownRequestsCostFiveLinesAndACount() throws {
        let (d, p) = try plymouthDaemon()
        p.send([UInt8](repeating: 0x5A, count: 1)  + [0] + Array(repeating: [0x5A, 0], count: 999).flatMap { $0 })
        for _ in 0..<50 { d.step(to: d.clock.now) ; _ = p.readBytes(1000, seconds: 0) }
        let unknown = { d.lines.all.filter { $0.contains("plymouth: unknown request 90") } }
        #expect(unknown().count == 5)
        d.step(to: d.clock.now + 11)
        p.send([0x5A, 0])
        d.step(to: d.clock.now)
        #expect(unknown().count == 6)
        #expect(unknown().last?.contains("(995 more like it not logged)") == true, "\(unknown().last ?? "")")
    }
}

/// A request with bytes that are not UTF-8 is refused, naming the byte.
@Suite struct RequestUTF8Tests {
    @Test func rawInvalidBytesAreBadJSON() throws {
        let d = try SteppedDaemon(layouts: ["splash": ContentCommandTests.splash], start: "splash")
        let c = try d.connect()
        c.send(Array(#"{"command": "update", "message": "x"#.utf8) + [0xFF, 0xFE] + Array("\"}\n".utf8))
        let reply = try #require(d.reply(c))
        #expect(reply["error"]?["code"] == "bad_json")
        #expect(reply["error"]?["message"]?.stringValue?.contains("invalid UTF-8 at byte 35 (0xff)") == true, "\(reply)")
        #expect(d.daemon.statusReply(now: d.clock.now).content?.texts["status"] == "Starting", "nothing changed")
    }
}
