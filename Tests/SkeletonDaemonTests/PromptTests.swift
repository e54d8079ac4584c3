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

/// The boot's questions on the skeleton: Plymouth's password requests and systemd's ask files
/// answered from keys, the picture on screen, and what happens when nobody can type.
@Suite(.serialized) struct PromptTests {
    static let size = Size(width: 640, height: 400)
    static let message = "Please unlock disk cryptroot:"
    /// A layout with a place of its own for questions.
    static let withPromptView = """
        {"name": "p", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "presentation": {"style": "solid", "animated": false},
         "root": {"kind": "view", "children": [{"kind": "image", "frame": [10, 10, 40, 40]},
           {"kind": "view", "id": "ask", "role": "prompt", "frame": [60, 10, 130, 60]}]}}
        """

    final class Setup {
        let d: SteppedDaemon
        let keys = HandKeys()
        let plymouthName = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let askDirectory: String
        let input: String

        init(keyboards: Int = 1, heads: [String]? = nil) throws {
            let base = FileManager.default.temporaryDirectory.path + "/prompt-\(UUID().uuidString.prefix(8))"
            askDirectory = base + "/ask-password"
            input = base + "/input"
            try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
            let settings = #"{"plymouth": {"listen": true, "socket": "\#(plymouthName)"}, "prompts": {"agent": "\#(askDirectory)", "inputDevices": "\#(input)"}}"#
            d = try SteppedDaemon(layouts: TransitionEndTests.layouts.merging(["p": PromptTests.withPromptView]) { a, _ in a }, start: "a",
                                  size: PromptTests.size, heads: heads, settings: settings)
            keys.count = keyboards
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

        /// The question as the screen shows it now.
        var picture: PromptPicture? {
            d.daemon.prompts.picture(of: d.daemon.screen.questions.current, notice: d.daemon.screen.questions.notice)
        }

        func press(_ action: KeyAction) {
            d.daemon.press(action)
            d.daemon.turn()
            d.step(to: d.clock.now + 0.05)
        }

        /// The skeleton with `picture` over it, as the screen must show it.
        func expected(_ picture: PromptPicture?, layout: String = "a") throws -> PixelBuffer {
            let image = try d.render(layout, size: PromptTests.size)
            if let picture { PromptOverlay(outputSize: PromptTests.size, sprites: ContentSprites()).draw(picture, region: image.canvas.bounds, into: image.canvas) }
            return image
        }

        func screenShows(_ picture: PromptPicture?, layout: String = "a") throws -> Bool {
            let want = try expected(picture, layout: layout)
            let got = d.screen
            if got.pixels != want.pixels {
                try? ImageFile.write(got.canvas, to: "/tmp/prompt-actual.png", format: .png)
                try? ImageFile.write(want.canvas, to: "/tmp/prompt-expected.png", format: .png)
                return false
            }
            return true
        }

        /// An ask file as systemd-ask-password writes it (to a temporary name, then renamed).
        func writeAsk(_ name: String, socket: String, message: String = PromptTests.message, notAfter: UInt64 = 0, echo: Bool = false) throws {
            let text = "[Ask]\nPID=1\nSocket=\(socket)\nAcceptCached=0\nEcho=\(echo ? 1 : 0)\nNotAfter=\(notAfter)\nMessage=\(message)\n"
            try text.write(toFile: askDirectory + "/.tmp", atomically: false, encoding: .utf8)
            try FileManager.default.moveItem(atPath: askDirectory + "/.tmp", toPath: askDirectory + "/" + name)
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

    // MARK: systemd's password agent protocol

    // The agent alone (ask files read, answered, gone, expired, refused, capped) is in
    // PasswordAgentTests; here, its questions on the screen and answered from keys.

    /// A datagram socket like systemd-ask-password's, and what arrives on it.
    final class Asker {
        let path: String
        let fd: Int32
        init(directory: String) {
            path = directory + "/sck.\(UUID().uuidString.prefix(6))"
            fd = sk_unix_datagram_bind(path)
        }
        deinit { close(fd) }
        func received() -> String? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
        }
    }

    @Test func anAskFileIsShownAndAnsweredOnItsSocket() throws {
        let s = try Setup()
        let asker = Asker(directory: s.askDirectory)
        try s.writeAsk("ask.a1", socket: asker.path)
        #expect(try s.screenShows(PromptPicture(message: Self.message)))
        s.type("Bär@Fuß")
        s.press(.enter)
        #expect(asker.received() == "+Bär@Fuß")
        #expect(try s.screenShows(nil))
    }
}
