import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import Testing

/// What Plymouth's socket and the show/quit paths do with bad input: requests whose declared
/// length is wrong, clients that connect and never send, a quit while a show is pending.
@Suite struct PlymouthFaultTests {
    let plymouth = PlymouthTests()

    /// A declared size larger than what came waits for the rest without holding anyone else up;
    /// an argument that does not end in its NUL where its size says gets a NAK and the connection
    /// is closed (the stream cannot be cut after it), with a log line; others go on.
    @Test func requestsOfTheWrongLengthHoldUpNobody() throws {
        let (d, socket) = try plymouth.daemon()
        let short = try TestClient(path: socket)
        short.send([0x55, 2, 200] + Array("fsck".utf8) + [0])  // says 200 bytes, sends 5
        let other = try TestClient(path: socket)
        #expect(plymouth.ask(d, other, PlymouthRequest(command: .ping)) == [6], "another client is answered meanwhile")
        #expect(short.readBytes(1, seconds: 0).isEmpty, "no answer to half a request")
        let long = try TestClient(path: socket)
        // A whole request, then one that says 3 bytes for "abcdef" and its NUL.
        long.send([0x55, 2, 3] + Array("ok".utf8) + [0] + [0x55, 2, 3] + Array("abcdef".utf8) + [0])
        var replies: [UInt8] = []
        for _ in 0..<50 where replies.count < 2 {
            d.daemon.turn()
            replies += long.readBytes(2 - replies.count, seconds: 0)
        }
        #expect(replies == [6, 0x15])
        #expect(d.logContains("does not end where its size says"))
        #expect(try plymouth.plymouthStatus(d)["status"] == "ok")
        d.daemon.turn()
        #expect(long.readBytes(1, seconds: 0.5).isEmpty, "closed")
        #expect(plymouth.ask(d, other, PlymouthRequest(command: .ping)) == [6])
        // A broken request alone, nothing whole before it: answered and closed all the same.
        let lone = try TestClient(path: socket)
        lone.send([0x55, 2, 3] + Array("abcdef".utf8) + [0])
        #expect(plymouth.ask(d, lone, PlymouthRequest(command: .ping)) == [0x15])
        d.daemon.turn()
        #expect(lone.readBytes(1, seconds: 0.5).isEmpty, "closed")
    }

    /// Clients that connect and never send fill the connection table at most: the newcomer gets
    /// the place of the one quiet longest, and is answered.
    @Test func clientsThatNeverSendCannotLockOthersOut() throws {
        let (d, socket) = try plymouth.daemon()
        var silent: [TestClient] = []
        for _ in 0..<PlymouthServer.maximumConnections {
            silent.append(try TestClient(path: socket))
            d.daemon.turn()
        }
        silent[5].send([0x55, 2, 9])  // part of a request, then nothing
        d.daemon.turn()
        let late = try TestClient(path: socket)
        #expect(plymouth.ask(d, late, PlymouthRequest(command: .ping)) == [6])
        #expect(d.logContains("connections open; closing the one quiet longest"))
        #expect(silent[0].readBytes(1, seconds: 0).isEmpty)
    }

    /// `plymouth quit` while a delayed show is pending cancels it: the waiting `show --wait` is
    /// answered (not shown), and nothing appears when the delay ends.
    @Test func aQuitWhileAShowIsPendingCancelsIt() throws {
        let (d, socket) = try plymouth.daemon()
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "none"}}"#)?["ok"] == true)
        d.step(to: 100.5)
        let waiting = try d.connect()
        waiting.send(#"{"id": "w", "command": "show", "delay": 2, "wait": true}"# + "\n")
        d.step(to: 100.6)
        #expect(d.daemon.screen.session.state == .pending)
        let p = try TestClient(path: socket)
        #expect(plymouth.ask(d, p, PlymouthRequest(command: .quit, argument: [])) == [6])
        let answer = d.reply(waiting)
        #expect(answer?["id"] == "w")
        #expect(answer?["shown"] == false, "\(String(describing: answer))")
        d.step(to: 104)
        #expect(d.daemon.screen.session.state == .idle)
        #expect(d.logContains("hide: cancelled"))
    }

    /// The control protocol's `quit` while a `show --wait` is pending: the waiting client is
    /// answered before the daemon stops, not left with a closed connection.
    @Test func aControlQuitWhileAShowIsPendingAnswersTheWaiter() throws {
        let (d, _) = try plymouth.daemon()
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "none"}}"#)?["ok"] == true)
        d.step(to: 100.5)
        let waiting = try d.connect()
        waiting.send(#"{"id": "w", "command": "show", "delay": 2, "wait": true}"# + "\n")
        d.step(to: 100.6)
        #expect(d.request(c, #"{"command": "quit"}"#)?["quitting"] == true)
        #expect(!d.daemon.loop.running)
        d.shutdown()
        let answer = waiting.readReply(seconds: 1)
        #expect(answer?["id"] == "w")
        #expect(answer?["shown"] == false, "\(String(describing: answer))")
    }
}
