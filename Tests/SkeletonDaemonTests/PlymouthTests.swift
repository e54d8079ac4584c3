import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import Testing

/// Plymouth's boot protocol: the bytes Plymouth's clients send, and what the daemon answers and
/// does. (Debian's own `plymouth` client is driven against the daemon in
/// Tests/plymouth/test_plymouth_client.py.)
@Suite struct PlymouthTests {
    @Test func requestsAreCutFromBytesHoweverTheyArrive() {
        var framer = PlymouthFramer()
        let ping = PlymouthRequest(command: .ping)
        let status = PlymouthRequest(command: .update, argument: Array("fsck 40%".utf8))
        #expect(ping.bytes == [0x50, 0])
        #expect(status.bytes == [0x55, 2, 9] + Array("fsck 40%".utf8) + [0])
        let stream = ping.bytes + status.bytes + PlymouthRequest(command: .quit, argument: [1]).bytes + [0x5A, 0]
        // One byte at a time: nothing until a request is whole.
        var got: [PlymouthRequest] = []
        for byte in stream {
            framer.append([byte])
            while let r = framer.next() { got.append(r) }
        }
        #expect(got == [ping, status, PlymouthRequest(command: .quit, argument: [1]), PlymouthRequest(command: .unknown(0x5A))])
        #expect(framer.bufferedCount == 0)
        // All at once: the same.
        framer.append(stream)
        var again: [PlymouthRequest] = []
        while let r = framer.next() { again.append(r) }
        #expect(again == got)
        // quit without --retain-splash: an empty argument.
        framer.append([0x51, 2, 1, 0])
        #expect(framer.next() == PlymouthRequest(command: .quit, argument: []))
    }

    @Test func repliesAreTheBytesPlymouthdWrites() {
        #expect(PlymouthReply.ack.bytes == [6])
        #expect(PlymouthReply.nak.bytes == [0x15])
        #expect(PlymouthReply.noAnswer.bytes == [5])
        #expect(PlymouthReply.answer("ab").bytes == [2, 2, 0, 0, 0, 0x61, 0x62])
    }

    static let layouts = ["a": TransitionEndTests.still("a", x: 20)]

    func daemon() throws -> (SteppedDaemon, String) {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a", settings: #"{"plymouth": {"listen": true, "socket": "\#(name)"}}"#)
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

    func plymouthStatus(_ d: SteppedDaemon) throws -> JSONValue {
        let c = try d.connect()
        return try #require(d.request(c, #"{"command": "status"}"#)?["plymouth"])
    }

    @Test func statusMessagesAndProgressAreKeptAndReported() throws {
        let (d, socket) = try daemon()
        let p = try TestClient(path: socket)
        #expect(ask(d, p, PlymouthRequest(command: .ping)) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .update, argument: Array("fsck".utf8))) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .showMessage, argument: Array("Updating firmware, do not switch off".utf8))) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .showMessage, argument: Array("second".utf8))) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .hideMessage, argument: Array("second".utf8))) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .systemUpdate, argument: Array("42".utf8))) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .systemUpdate, argument: Array("142".utf8))) == [6], "plymouthd acknowledges a bad value too")
        #expect(ask(d, p, PlymouthRequest(command: .changeMode, argument: Array("updates".utf8))) == [6])
        let notes = try plymouthStatus(d)
        #expect(notes["status"] == "fsck")
        #expect(notes["messages"] == .array(["Updating firmware, do not switch off"]))
        #expect(notes["progress"] == 42)
        #expect(notes["mode"] == "updates")
        #expect(notes["socket"] == .string(socket))
        #expect(d.logContains("system-update progress \"142\" is not a whole number from 0 to 100"))
    }

    @Test func withoutAKeyboardPromptsGetNoAnswerAndUnknownRequestsANak() throws {
        let (d, socket) = try daemon()
        let p = try TestClient(path: socket)
        // The prompt waits for a keyboard (PromptTests types on one), then is left to the client.
        p.send(PlymouthRequest(command: .password, argument: Array("Passphrase for /dev/sda2:".utf8)).bytes)
        d.step(to: d.clock.now + 1)
        #expect(p.readBytes(1, seconds: 0).isEmpty)
        d.step(to: d.clock.now + QuestionQueue.keyboardWait)
        #expect(p.readBytes(1, seconds: 0) == [5])
        #expect(d.logContains("prompt: no keyboard within 3 s; the questions are left to the console"))
        #expect(ask(d, p, PlymouthRequest(command: .cachedPassword)) == [5])
        #expect(ask(d, p, PlymouthRequest(command: .unknown(0x5A))) == [0x15])
        // The connection still answers after all of that.
        #expect(ask(d, p, PlymouthRequest(command: .ping)) == [6])
    }

    @Test func quitHidesAndRetainKeepsTheFrame() throws {
        let (d, socket) = try daemon()
        let p = try TestClient(path: socket)
        #expect(d.daemon.screen.session.state == .showing)
        #expect(ask(d, p, PlymouthRequest(command: .quit, argument: [1])) == [6])
        #expect(d.daemon.screen.session.state == .idle)
        #expect(d.daemon.screen.session.retained, "quit --retain-splash leaves the frame")
        #expect(ask(d, p, PlymouthRequest(command: .showSplash)) == [6])
        #expect(d.daemon.screen.session.state == .showing)
        #expect(ask(d, p, PlymouthRequest(command: .quit, argument: [])) == [6])
        #expect(d.daemon.screen.session.state == .idle)
        #expect(!d.daemon.screen.session.retained)
        // Nothing shown: "not running" to `plymouth --ping` (askpass then asks on the console),
        // but the daemon stays for a later show.
        #expect(ask(d, p, PlymouthRequest(command: .ping)) == [0x15])
        #expect(ask(d, p, PlymouthRequest(command: .showSplash)) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .ping)) == [6])
    }

    @Test func hideSplashAndShowSplashAndDeactivation() throws {
        let (d, socket) = try daemon()
        let p = try TestClient(path: socket)
        #expect(ask(d, p, PlymouthRequest(command: .hasActiveVT)) == [6])
        #expect(ask(d, p, PlymouthRequest(command: .deactivate)) == [6])
        #expect(d.daemon.statusReply(now: d.clock.now).deactivated)
        // A message while deactivated reaches the layout but does not take the display back.
        #expect(ask(d, p, PlymouthRequest(command: .showMessage, argument: Array("Starting X".utf8))) == [6])
        #expect(d.daemon.host.released, "the display stays let go for the display server")
        #expect(ask(d, p, PlymouthRequest(command: .reactivate)) == [6])
        #expect(!d.daemon.statusReply(now: d.clock.now).deactivated)
        #expect(ask(d, p, PlymouthRequest(command: .hideSplash)) == [6])
        d.step(to: 101)
        #expect(d.daemon.screen.session.state == .idle)
        #expect(ask(d, p, PlymouthRequest(command: .hasActiveVT)) == [0x15], "nothing shown: no active splash")
        #expect(ask(d, p, PlymouthRequest(command: .showSplash)) == [6])
        d.step(to: 102)
        #expect(d.daemon.screen.session.state == .showing)
        #expect(d.screen.pixels == (try d.render("a")).pixels)
    }
}
