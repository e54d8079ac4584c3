import CSkeletonSystem
import Foundation
@testable import SkeletonDaemon
import SkeletonContent
import SkeletonLayout
import SkeletonPicture
import SkeletonPrompt
import SkeletonProtocol
import SkeletonRender
import SkeletonSystem
import Testing

/// Keys given by hand: a keyboard that is there (or not), typed into by the test; `unplug`
/// takes it away as a device's removal would, through a descriptor the loop polls.
final class HandKeys: KeySource {
    var count: Int
    private(set) var closed = false
    private let pipe: (read: FileDescriptor, write: FileDescriptor)
    init(keyboards: Int = 1) {
        count = keyboards
        pipe = try! SystemCalls.pipe()
    }
    deinit {
        pipe.read.close()
        pipe.write.close()
    }
    /// The keyboard goes when the loop reads its descriptor, as libinput reports a removal.
    func unplug() { pipe.write.writeAll([1]) }
    var watches: [Watch] { [Watch(descriptor: pipe.read, events: .readable)] }
    func handle(_ fd: FileDescriptor, now: Double, _ action: (KeyAction) -> Void) -> Bool {
        guard fd == pipe.read else { return false }
        var byte: [UInt8] = [0]
        _ = try? byte.withUnsafeMutableBytes { try fd.read(into: $0) }
        count = 0
        return true
    }
    var repeatDue: Double? { nil }
    func repeatIfDue(now: Double, _ action: (KeyAction) -> Void) {}
    var lastKeyTime: Double? { nil }
    func close() { closed = true }
}

/// The boot's questions end to end on a stepped daemon: Plymouth's password request and an ask
/// file answered from keys over their real sockets, the picture on screen, and the loop waking
/// for a keyboard unplugged and for an ask's `NotAfter=`. The questions' behaviour is
/// `QuestionsOnScreenTests`' (the value), the agent's `PasswordAgentTests`'.
@Suite(.serialized) struct PromptTests {
    static let size = Size(width: 640, height: 400)
    static let message = "Please unlock disk cryptroot:"

    final class Setup {
        let d: SteppedDaemon
        let keys = HandKeys()
        let plymouthName = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let askDirectory: String
        let input: String

        init() throws {
            let base = FileManager.default.temporaryDirectory.path + "/prompt-\(UUID().uuidString.prefix(8))"
            askDirectory = base + "/ask-password"
            input = base + "/input"
            try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
            let settings = #"{"plymouth": {"listen": true, "socket": "\#(plymouthName)"}, "prompts": {"agent": "\#(askDirectory)", "inputDevices": "\#(input)"}}"#
            d = try SteppedDaemon(layouts: TransitionEndTests.layouts, start: "a", size: PromptTests.size, settings: settings)
            let keys = self.keys
            d.daemon.prompts.openKeys = { keys }
        }

        deinit { try? FileManager.default.removeItem(atPath: (askDirectory as NSString).deletingLastPathComponent) }

        func type(_ text: String) {
            for c in text {
                var utf8 = Array(String(c).utf8)
                utf8.withUnsafeBytes { d.daemon.press(.character($0)) }
                utf8.removeAll()
            }
            // Keys come in a loop turn (the keyboard's descriptor is ready), as here.
            d.daemon.turn()
            d.step(to: d.clock.now + 0.05)
        }

        func press(_ action: KeyAction) {
            d.daemon.press(action)
            d.daemon.turn()
            d.step(to: d.clock.now + 0.05)
        }

        /// The skeleton with `picture` over it, as the screen must show it.
        func expected(_ picture: PromptPicture?) throws -> PixelBuffer {
            let image = try d.render("a", size: PromptTests.size)
            if let picture { PromptOverlay(outputSize: PromptTests.size, sprites: ContentSprites()).draw(picture, region: image.canvas.bounds, into: image.canvas) }
            return image
        }

        func screenShows(_ picture: PromptPicture?) throws -> Bool {
            let want = try expected(picture)
            let got = d.screen
            if got.pixels != want.pixels {
                try? ImageFile.write(got.canvas, to: "/tmp/prompt-actual.png", format: .png)
                try? ImageFile.write(want.canvas, to: "/tmp/prompt-expected.png", format: .png)
                return false
            }
            return true
        }

        /// An ask file written, and the loop's turns that follow.
        func writeAsk(_ name: String, socket: String, notAfter: UInt64 = 0) throws {
            try PasswordAgentTests.writeAsk(name, into: askDirectory, socket: socket, message: PromptTests.message, notAfter: notAfter)
            d.step(to: d.clock.now + 0.05)
        }
    }

    func password(_ s: Setup, _ client: TestClient) {
        client.send(PlymouthRequest(command: .password, argument: Array(Self.message.utf8)).bytes)
        s.d.step(to: s.d.clock.now + 0.05)
    }

    @Test func aPlymouthPasswordIsTypedAsBulletsAndAnsweredOnEnter() throws {
        let s = try Setup()
        let client = try TestClient(path: "@" + s.plymouthName)
        password(s, client)
        #expect(client.readBytes(1, seconds: 0).isEmpty)
        #expect(try s.screenShows(PromptPicture(message: Self.message)))
        #expect(!SystemCalls.isDumpable)
        s.type("s3cr")
        s.press(.backspace)
        s.type("et")
        #expect(try s.screenShows(PromptPicture(message: Self.message, bullets: 5)))
        s.press(.enter)
        #expect(client.readBytes(10, seconds: 0) == [2, 5, 0, 0, 0] + Array("s3cet".utf8))
        // The prompt is gone and the keyboard let go. (The process is dumpable again once no
        // desk in it holds a question: other tests' may, so that is not asserted here.)
        #expect(try s.screenShows(nil))
        #expect(s.keys.closed)
        #expect(!s.d.lines.all.contains { $0.contains("s3c") })
    }

    /// The loop wakes for what the questions wait on: a keyboard unplugged (its descriptor), the
    /// wait for another (the questions' deadline), an ask's `NotAfter=` (the agent's).
    @Test func theLoopWakesForAKeyboardUnpluggedAndForTheDeadlines() throws {
        let s = try Setup()
        let client = try TestClient(path: "@" + s.plymouthName)
        password(s, client)
        s.type("abc")
        s.keys.unplug()
        s.d.step(to: s.d.clock.now + 0.05)
        #expect(try s.screenShows(PromptPicture(message: Self.message, bullets: 3, notice: "Waiting for a keyboard")))
        s.d.step(to: s.d.clock.now + QuestionQueue.keyboardWait)
        #expect(client.readBytes(1, seconds: 0) == [5])
        #expect(try s.screenShows(nil))
        // NotAfter: one second from now on the daemon's monotonic clock.
        s.keys.count = 1
        let asker = try PasswordAgentTests.AskSocket(directory: s.askDirectory)
        try s.writeAsk("ask.late", socket: asker.path, notAfter: UInt64((s.d.clock.now + 1) * 1_000_000))
        #expect(try s.screenShows(PromptPicture(message: Self.message)))
        s.d.step(to: s.d.clock.now + 1.5)
        #expect(try s.screenShows(nil))
        #expect(s.d.logContains("ask.late expired (NotAfter= passed)"))
    }

    @Test func anAskFileIsShownAndAnsweredOnItsSocket() throws {
        let s = try Setup()
        let asker = try PasswordAgentTests.AskSocket(directory: s.askDirectory)
        try s.writeAsk("ask.a1", socket: asker.path)
        #expect(try s.screenShows(PromptPicture(message: Self.message)))
        s.type("Bär@Fuß")
        s.press(.enter)
        #expect(asker.received() == Array("+Bär@Fuß".utf8))
        #expect(try s.screenShows(nil))
    }
}
