import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import Testing

/// A client that sends and never reads holds up nobody: it is read a bounded share per loop
/// turn, stops being read or served once its replies pile up unread, and loses nothing.
@Suite struct ControlServerTests {
    /// Sends whole lines as long as the connection takes them without waiting; returns the bytes sent.
    func flood(_ client: any SteppedClient, with line: [UInt8], upTo limit: Int) -> Int {
        var sent = 0
        while sent < limit {
            let n = client.sendNow(line)
            sent += n
            if n < line.count { break }
        }
        return sent
    }

    @Test func aFloodOfTreeRequestsDelaysNoOtherClientsPing() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default")
        let flooder = try d.connect()
        let line = Array(#"{"command": "tree"}"#.utf8) + [0x0A]
        var sent = flood(flooder, with: line, upTo: 100 << 20)
        let pinger = try d.connect()
        for round in 0..<20 {
            // The flooder keeps the socket full; the ping is answered within two loop turns.
            sent += flood(flooder, with: line, upTo: 100 << 20)
            pinger.send("{\"command\": \"ping\", \"id\": \(round)}\n")
            let pong = d.reply(pinger, maxTurns: 2)
            #expect(pong?["id"]?.numberValue == Double(round))
        }
        let server = try #require(d.daemon.inlets.server)
        let client = try #require(server.clients.values.first { $0.number == 1 })
        // Bounded memory: replies held for it stop at the high-water mark plus one reply.
        #expect(client.unreadBytes < ClientConnection.outputHighWater + 16_384)
        #expect(sent > 0)
        // Nothing is lost: reading now, the flooder gets one reply per request it sent.
        let requests = sent / line.count
        var replies = 0
        for _ in 0..<(requests * 4 + 1000) where replies < requests {
            d.daemon.turn()
            while flooder.readReply(seconds: 0) != nil { replies += 1 }
        }
        #expect(replies == requests)
    }

    @Test func aClientIsReadABoundedShareEachTurn() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default")
        let greedy = try d.connect()
        let ping = Array(#"{"command": "ping"}"#.utf8) + [0x0A]
        var burst: [UInt8] = []
        for _ in 0..<1000 { burst += ping }
        greedy.send(burst)
        let other = try d.connect()
        other.send(#"{"command": "ping", "id": "other"}"# + "\n")
        d.daemon.turn()
        d.daemon.turn()
        #expect(other.readReply(seconds: 0)?["id"] == "other")
        var greedyReplies = 0
        while greedy.readReply(seconds: 0) != nil { greedyReplies += 1 }
        #expect(greedyReplies <= ClientConnection.linesPerTurn * 2, "at most its share of lines ran in two turns")
        for _ in 0..<200 { d.daemon.turn(); while greedy.readReply(seconds: 0) != nil { greedyReplies += 1 } }
        #expect(greedyReplies == 1000)
    }

    @Test func requestsSentJustBeforeAClientHangsUpAreCarriedOut() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default")
        do {
            let c = try d.connect()
            var lines = ""
            for _ in 0..<100 { lines += #"{"command": "status"}"# + "\n" }
            c.send(lines + #"{"command": "hide", "transition": {"kind": "none"}}"# + "\n")
        }
        // One turn accepts it, the next finds it hung up: what it sent is carried out at once.
        d.daemon.turn()
        d.daemon.turn()
        #expect(d.daemon.screen.session.state == .idle, "the hide after a hundred other requests was carried out")
        #expect(d.daemon.inlets.server?.clients.isEmpty == true)
    }
}
