import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonLog
import SkeletonProtocol
import SkeletonSystem
import Testing

/// What Plymouth's socket and the show/quit paths do with bad input: requests whose declared
/// length is wrong and clients that connect and never send (the server alone, no daemon), a quit
/// while a show is pending (the daemon).
@Suite struct PlymouthFaultTests {
    /// A `PlymouthServer` with no daemon, on an abstract name of its own: `turn` does what the
    /// daemon's loop does with it in one turn (waits on its watches, hands it what is ready, runs
    /// what it queued); `execute` keeps every request and acknowledges it, or with
    /// `answersLater` leaves it pending (a question being typed).
    final class LoneServer {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let server: PlymouthServer
        let lines = LogLines()
        var answersLater = false
        private(set) var executed: [(request: PlymouthRequest, ticket: PlymouthTicket)] = []
        /// The tickets of the requests whose clients went before their answer.
        private(set) var abandoned: [PlymouthTicket] = []

        init() throws {
            server = try PlymouthServer(name: name, logger: lines.logger())
            server.execute = { [unowned self] request, ticket in
                executed.append((request, ticket))
                return answersLater ? nil : .ack
            }
            server.abandoned = { [unowned self] in abandoned.append($0) }
        }

        var requests: [PlymouthRequest] { executed.map(\.request) }

        deinit { server.close() }

        var socket: String { "@" + name }

        func logContains(_ text: String) -> Bool { lines.contain(text) }

        func turn() {
            var watches: [Watch] = []
            server.addWatches(to: &watches)
            for ready in SystemCalls.pollReady(watches, timeoutMilliseconds: 0) {
                #expect(server.handle(ready.descriptor, ready.events), "every ready descriptor is the server's")
            }
            server.runQueuedRequests()
        }

        /// Sends `request` and turns until `count` reply bytes came.
        func ask(_ client: TestClient, _ request: PlymouthRequest, replyBytes count: Int = 1) -> [UInt8] {
            client.send(request.bytes)
            var reply: [UInt8] = []
            for _ in 0..<50 where reply.count < count {
                turn()
                reply += client.readBytes(count - reply.count, seconds: 0)
            }
            return reply
        }
    }

    /// Whether the server closed `client`'s connection: the end of its stream, now.
    func hungUp(_ client: TestClient) -> Bool {
        var byte: UInt8 = 0
        return recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// A client that hangs up while its request waits for its answer (a password being typed)
    /// is reported once, so that its question goes; its answer then goes nowhere.
    @Test func aClientThatLeavesWithARequestPendingIsReported() throws {
        let s = try LoneServer()
        s.answersLater = true
        var client: TestClient? = try TestClient(path: s.socket)
        client?.send(PlymouthRequest(command: .password, argument: Array("Passphrase:".utf8)).bytes)
        s.turn()
        s.turn()
        let ticket = try #require(s.executed.first?.ticket)
        #expect(s.abandoned.isEmpty, "waiting for its answer")
        client = nil
        s.turn()
        s.turn()
        #expect(s.abandoned == [ticket])
        #expect(!s.server.fulfil(ticket, with: .noAnswer), "its client has gone")
    }

    /// A declared size larger than what came waits for the rest without holding anyone else up;
    /// an argument that does not end in its NUL where its size says gets a NAK and the connection
    /// is closed (the stream cannot be cut after it), with a log line; others go on.
    @Test func requestsOfTheWrongLengthHoldUpNobody() throws {
        let s = try LoneServer()
        let short = try TestClient(path: s.socket)
        short.send([0x55, 2, 200] + Array("fsck".utf8) + [0])  // says 200 bytes, sends 5
        let other = try TestClient(path: s.socket)
        #expect(s.ask(other, PlymouthRequest(command: .ping)) == [6], "another client is answered meanwhile")
        #expect(short.readBytes(1, seconds: 0).isEmpty, "no answer to half a request")
        #expect(!hungUp(short), "half a request waits for the rest")
        #expect(s.requests == [PlymouthRequest(command: .ping)], "half a request is not carried out")
        let long = try TestClient(path: s.socket)
        // A whole request, then one that says 3 bytes for "abcdef" and its NUL.
        long.send([0x55, 2, 3] + Array("ok".utf8) + [0] + [0x55, 2, 3] + Array("abcdef".utf8) + [0])
        var replies: [UInt8] = []
        for _ in 0..<50 where replies.count < 2 {
            s.turn()
            replies += long.readBytes(2 - replies.count, seconds: 0)
        }
        #expect(replies == [6, 0x15])
        #expect(s.logContains("plymouth: a request whose argument does not end where its size says; answered with a NAK and closed the connection"))
        let ping = PlymouthRequest(command: .ping), ok = PlymouthRequest(command: .update, argument: Array("ok".utf8))
        #expect(s.requests == [ping, ok], "the whole request before it was carried out, the broken one not")
        s.turn()
        #expect(hungUp(long), "closed")
        #expect(s.ask(other, PlymouthRequest(command: .ping)) == [6])
        // A broken request alone, nothing whole before it: answered and closed all the same.
        let lone = try TestClient(path: s.socket)
        lone.send([0x55, 2, 3] + Array("abcdef".utf8) + [0])
        #expect(s.ask(lone, PlymouthRequest(command: .ping)) == [0x15])
        s.turn()
        #expect(hungUp(lone), "closed")
        #expect(!hungUp(other) && !hungUp(short), "the others are still served")
        #expect(s.requests == [ping, ok, ping], "nothing after a broken request is carried out")
    }

    /// Clients that connect and never send fill the connection table at most: the newcomer gets
    /// the place of the one quiet longest, and is answered.
    @Test func clientsThatNeverSendCannotLockOthersOut() throws {
        let s = try LoneServer()
        var silent: [TestClient] = []
        for _ in 0..<PlymouthServer.maximumConnections {
            silent.append(try TestClient(path: s.socket))
            s.turn()
        }
        silent[5].send([0x55, 2, 9])  // part of a request, then nothing
        s.turn()
        let late = try TestClient(path: s.socket)
        #expect(s.ask(late, PlymouthRequest(command: .ping)) == [6])
        #expect(s.logContains("plymouth: \(PlymouthServer.maximumConnections) connections open; closing the one quiet longest"))
        #expect(silent[0].readBytes(1, seconds: 0).isEmpty)
        #expect(hungUp(silent[0]), "the first one, quiet longest, made room")
        #expect(!hungUp(silent[1]) && !hungUp(silent[5]), "the others stay")
        #expect(s.requests == [PlymouthRequest(command: .ping)])
    }

    /// `plymouth quit` while a delayed show is pending cancels it: the waiting `show --wait` is
    /// answered (not shown), and nothing appears when the delay ends.
    @Test func aQuitWhileAShowIsPendingCancelsIt() throws {
        let (d, socket) = try daemon()
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "none"}}"#)?["ok"] == true)
        d.step(to: 100.5)
        let waiting = try d.connect()
        waiting.send(#"{"id": "w", "command": "show", "delay": 2, "wait": true}"# + "\n")
        d.step(to: 100.6)
        #expect(d.daemon.screen.session.state == .pending)
        let p = try TestClient(path: socket)
        #expect(ask(d, p, PlymouthRequest(command: .quit, argument: [])) == [6])
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
        let (d, _) = try daemon()
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

    /// A stepped daemon answering Plymouth on a name of its own, and that name.
    func daemon() throws -> (SteppedDaemon, String) {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let d = try SteppedDaemon(layouts: PlymouthTests.layouts, start: "a", settings: #"{"plymouth": {"listen": true, "socket": "\#(name)"}}"#)
        return (d, "@" + name)
    }

    /// Sends `request` and turns the loop until `count` reply bytes came.
    func ask(_ d: SteppedDaemon, _ client: TestClient, _ request: PlymouthRequest, replyBytes count: Int = 1) -> [UInt8] {
        client.send(request.bytes)
        var reply: [UInt8] = []
        for _ in 0..<50 where reply.count < count {
            d.daemon.turn()
            reply += client.readBytes(count - reply.count, seconds: 0)
        }
        return reply
    }
}
