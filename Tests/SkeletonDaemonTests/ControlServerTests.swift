import Foundation
@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonProtocol
import Testing

/// A client that sends and never reads holds up nobody: it is read a bounded share per loop
/// turn, stops being read or served once its replies pile up unread, and loses nothing. The
/// server runs on connections in memory with no daemon (`ServerOnTransport`).
@Suite struct ControlServerTests {
    /// Sends `line` again and again, from where the `sent` bytes before left off (a line cut short
    /// by a full buffer is finished first), as long as the connection takes it without waiting
    /// and at most `limit` bytes; returns the total sent.
    func flood(_ client: MemoryClient, with line: [UInt8], after sent: Int, upTo limit: Int) -> Int {
        var sent = sent
        let start = sent
        while sent - start < limit {
            let rest = Array(line[(sent % line.count)...])
            let n = client.sendNow(rest)
            sent += n
            if n < rest.count { break }
        }
        return sent
    }

    /// The layouts whose trees the flood asks for: the daemon's test layout (a reply of 431
    /// bytes) and thirty lines of text (a reply of several KB).
    static let treeLayouts: [String: String] = {
        var texts: [String] = []
        for i in 0..<30 { texts.append(#"{"kind": "text", "frame": [10, \#(10 + 20 * i), 380, 16], "lines": 1}"#) }
        let thirtyTexts = ##"{"name": "texts", "canvas": {"width": 400, "height": 640, "background": "#FFFFFF"}, "root": {"kind": "view", "children": ["##
            + texts.joined(separator: ", ") + "]}}"
        return ["simple": TestLayouts.simpleText, "thirty texts": thirtyTexts]
    }()

    @Test(arguments: ["simple", "thirty texts"])
    func aFloodOfTreeRequestsDelaysNoOtherClientsPing(layout: String) throws {
        let s = try ServerOnTransport(layout: try #require(Self.treeLayouts[layout]))
        let treeReply = Reply.ok(id: nil, ["tree": s.tree]).line.count
        #expect(treeReply > (layout == "simple" ? 400 : 3_000))
        let flooder = s.connect()
        let line = Array(#"{"command": "tree"}"#.utf8) + [0x0A]
        var sent = flood(flooder, with: line, after: 0, upTo: 100 << 20)
        let pinger = s.connect()
        for round in 0..<20 {
            // The flooder keeps the socket full; the ping is answered within two loop turns.
            sent = flood(flooder, with: line, after: sent, upTo: 100 << 20)
            pinger.send("{\"command\": \"ping\", \"id\": \(round)}\n")
            let pong = s.reply(pinger, maxTurns: 2)
            #expect(pong?["id"]?.numberValue == Double(round))
            #expect(pong?["pong"] == true)
        }
        let client = try #require(s.server.clients.values.first { $0.number == 1 })
        // Bounded memory: replies held for it stop at the high-water mark plus one reply.
        #expect(client.unreadBytes < ClientConnection.outputHighWater + 16_384)
        #expect(client.unreadBytes < ClientConnection.outputHighWater + treeReply)
        #expect(sent > 0)
        // Nothing is lost: reading now, the flooder gets one reply per request it sent, each
        // byte for byte the tree.
        let requests = sent / line.count
        let expected = Reply.ok(id: nil, ["tree": s.tree]).line
        var received: [UInt8] = []
        for _ in 0..<(requests * 4 + 1000) where received.count < requests * expected.count && s.wakes {
            s.turn()
            received += flooder.peer.receive()
        }
        #expect(received.count == requests * expected.count)
        // Compared as memory: the replies come to tens of MB.
        let trees = received.withUnsafeBytes { all in
            expected.withUnsafeBytes { one in
                (0..<(received.count / one.count)).count { memcmp(all.baseAddress! + $0 * one.count, one.baseAddress!, one.count) == 0 }
            }
        }
        #expect(trees == requests)
        #expect(s.carriedOut.count == requests + 20)
    }

    @Test func aClientIsReadABoundedShareEachTurn() throws {
        let s = try ServerOnTransport()
        let greedy = s.connect()
        let ping = Array(#"{"command": "ping"}"#.utf8) + [0x0A]
        var burst: [UInt8] = []
        for _ in 0..<1000 { burst += ping }
        greedy.send(burst)
        let other = s.connect()
        other.send(#"{"command": "ping", "id": "other"}"# + "\n")
        s.turn()
        s.turn()
        #expect(other.readReply()?["id"] == "other")
        var greedyReplies = 0
        while greedy.readReply()?["pong"] == true { greedyReplies += 1 }
        #expect(greedyReplies > 0, "it was served in those two turns too")
        #expect(greedyReplies <= ClientConnection.linesPerTurn * 2, "at most its share of lines ran in two turns")
        for _ in 0..<200 where s.wakes {
            s.turn()
            while greedy.readReply()?["pong"] == true { greedyReplies += 1 }
        }
        #expect(greedyReplies == 1000)
    }

    @Test func requestsSentJustBeforeAClientHangsUpAreCarriedOut() throws {
        let s = try ServerOnTransport()
        let peer: MemoryTransport.Peer
        do {
            let c = s.connect()
            peer = c.peer
            var lines = ""
            for _ in 0..<100 { lines += #"{"command": "status"}"# + "\n" }
            c.send(lines + #"{"command": "hide", "transition": {"kind": "none"}}"# + "\n")
        }
        #expect(peer.hungUp)
        // One turn accepts it, the next finds it hung up: what it sent is carried out at once.
        s.turn()
        s.turn()
        #expect(s.hidden, "the hide after a hundred other requests was carried out")
        #expect(s.carriedOut.map(\.name) == Array(repeating: "status", count: 100) + ["hide"])
        #expect(s.server.clients.isEmpty)
        #expect(peer.closedByDaemon)
    }
}
