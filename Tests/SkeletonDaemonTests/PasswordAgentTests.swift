import CSkeletonSystem
import Foundation
@testable import SkeletonDaemon
import SkeletonLog
import SkeletonPrompt
import SkeletonSystem
import Testing

/// systemd's password agent protocol, from the agent's side and with no daemon: ask files
/// written as systemd-ask-password writes them are read when the directory's watch says so,
/// answered with one datagram ("+" and the password) on their socket, dropped when they go or
/// their NotAfter= passes; bad files are said once and left, and a flood is capped.
@Suite struct PasswordAgentTests {
    static let message = "Please unlock disk cryptroot:"

    /// An ask-password directory of its own and an agent on it, whose log lines are kept.
    final class Place {
        let base: String
        let directory: String
        let lines = LogLines()
        let agent: PasswordAgent

        init() throws {
            base = FileManager.default.temporaryDirectory.path + "/agent-\(UUID().uuidString.prefix(8))"
            directory = base + "/ask-password"
            try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
            agent = PasswordAgent(directory: directory, logger: lines.logger())
        }

        deinit {
            agent.close()
            try? FileManager.default.removeItem(atPath: base)
        }

        func logContains(_ text: String) -> Bool { lines.contain(text) }
        func logCount(_ text: String) -> Int { lines.all.filter { $0.contains(text) }.count }

        func writeAsk(_ name: String, socket: String, message: String = PasswordAgentTests.message, notAfter: UInt64 = 0, echo: Bool = false) throws {
            try PasswordAgentTests.writeAsk(name, into: directory, socket: socket, message: message, notAfter: notAfter, echo: echo)
        }

        /// What the daemon's loop does when the directory changed: the agent's watch is ready,
        /// it is handed to the agent, and the directory read again. Returns the files that went.
        func directoryChanged() -> [String] {
            var watches: [Watch] = []
            agent.addWatches(to: &watches)
            let ready = SystemCalls.pollReady(watches, timeoutMilliseconds: 0)
            #expect(ready.count == 1, "the directory's watch is ready")
            for watch in ready { #expect(agent.handle(watch.descriptor)) }
            #expect(SystemCalls.pollReady(watches, timeoutMilliseconds: 0).isEmpty, "and drained")
            return agent.rescan()
        }
    }

    /// An ask file as systemd-ask-password writes it in `directory` (to a temporary name, then renamed).
    static func writeAsk(_ name: String, into directory: String, socket: String, message: String = PasswordAgentTests.message,
                         notAfter: UInt64 = 0, echo: Bool = false) throws {
        let text = "[Ask]\nPID=1\nSocket=\(socket)\nAcceptCached=0\nEcho=\(echo ? 1 : 0)\nNotAfter=\(notAfter)\nMessage=\(message)\n"
        try text.write(toFile: directory + "/.tmp", atomically: false, encoding: .utf8)
        try FileManager.default.moveItem(atPath: directory + "/.tmp", toPath: directory + "/" + name)
    }

    /// A datagram socket like systemd-ask-password's, and what arrives on it.
    final class AskSocket {
        let path: String
        let fd: Int32
        init(directory: String) throws {
            path = directory + "/sck.\(UUID().uuidString.prefix(6))"
            fd = sk_unix_datagram_bind(path)
            try #require(fd >= 0, "bound \(path)")
        }
        deinit { close(fd) }
        /// The next datagram's bytes, nil when none came.
        func received() -> [UInt8]? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return n >= 0 ? Array(buffer[0..<n]) : nil
        }
    }

    /// A password as typed at the prompt.
    func typed(_ text: String) -> SecretBuffer {
        let secret = SecretBuffer()
        for c in text { Array(String(c).utf8).withUnsafeBytes { _ = secret.append($0) } }
        return secret
    }

    @Test func anAskFileIsReadAndAnsweredOnItsSocket() throws {
        let place = try Place()
        #expect(place.agent.start())
        #expect(place.agent.rescan().isEmpty)
        #expect(place.agent.asks.isEmpty)
        let asker = try AskSocket(directory: place.directory)
        try place.writeAsk("ask.a1", socket: asker.path)
        #expect(place.directoryChanged().isEmpty)
        let file = place.directory + "/ask.a1"
        #expect(place.agent.asks == [PasswordAsk(file: file, socket: asker.path, message: Self.message, pid: 1)])
        #expect(place.logContains("password agent: \(file) asks \"\(Self.message)\""))
        let ask = try #require(place.agent.asks.first)
        try place.agent.answer(ask, with: typed("Bär@Fuß"))
        #expect(asker.received() == [UInt8(ascii: "+")] + Array("Bär@Fuß".utf8))
        #expect(asker.received() == nil, "one datagram")
        #expect(place.agent.asks.isEmpty)
        // Answered: while its file waits for the asker to remove it, it is not asked again.
        try place.writeAsk("ask.other", socket: asker.path, message: "another")
        #expect(place.directoryChanged().isEmpty)
        #expect(place.agent.asks.map(\.file) == [place.directory + "/ask.other"])
    }

    @Test func anAskAnsweredByAnotherAgentOrExpiredGoesAway() throws {
        let place = try Place()
        #expect(place.agent.start())
        let asker = try AskSocket(directory: place.directory)
        try place.writeAsk("ask.first", socket: asker.path)
        #expect(place.directoryChanged().isEmpty)
        #expect(place.agent.asks.map(\.file) == [place.directory + "/ask.first"])
        // The console's agent answered: systemd-ask-password removes the file.
        try FileManager.default.removeItem(atPath: place.directory + "/ask.first")
        #expect(place.directoryChanged() == [place.directory + "/ask.first"])
        #expect(place.agent.asks.isEmpty)
        #expect(asker.received() == nil)
        // NotAfter: one second after 100 s on the monotonic clock.
        try place.writeAsk("ask.second", socket: asker.path, notAfter: 101_000_000)
        #expect(place.directoryChanged().isEmpty)
        #expect(place.agent.asks.map(\.notAfter) == [101_000_000])
        #expect(place.agent.nextExpiry == 101.000001)
        #expect(place.agent.expire(now: 100.5).isEmpty)
        #expect(place.agent.expire(now: 101).isEmpty, "NotAfter= itself is still in time")
        #expect(place.agent.asks.count == 1)
        #expect(place.agent.expire(now: 101.5) == [place.directory + "/ask.second"])
        #expect(place.agent.asks.isEmpty)
        #expect(place.agent.nextExpiry == nil)
        #expect(place.logContains("password agent: \(place.directory)/ask.second expired (NotAfter= passed)"))
        #expect(asker.received() == nil, "an expired question is not answered")
    }

    @Test func badAskFilesAreSaidAndLeft() throws {
        let place = try Place()
        #expect(place.agent.start())
        let dir = place.directory
        let asker = try AskSocket(directory: dir)
        #expect(mkfifo(dir + "/ask.fifo", 0o600) == 0)
        try String(repeating: "x", count: PasswordAsk.sizeLimit + 1).write(toFile: dir + "/ask.huge", atomically: true, encoding: .utf8)
        try place.writeAsk("ask.gone", socket: dir + "/sck.nobody")
        #expect(place.directoryChanged().isEmpty)
        #expect(place.logContains("ask.fifo: it is not a regular file (a FIFO, socket or device); not answered"))
        #expect(place.logContains("ask.huge: it is 16385 bytes, more than the 16384 bytes a file may have; not answered"))
        #expect(FileManager.default.fileExists(atPath: dir + "/ask.fifo") && FileManager.default.fileExists(atPath: dir + "/ask.huge"), "left")
        // The one whose socket is gone is asked; its answer fails with the socket's error (which
        // the daemon says), and the agent goes on.
        #expect(place.agent.asks.map(\.file) == [dir + "/ask.gone"])
        let gone = try #require(place.agent.asks.first)
        let error = #expect(throws: Errno.self) { try place.agent.answer(gone, with: typed("pw")) }
        #expect(error?.rawValue == ENOENT)
        #expect(error?.call == "sendto \(dir)/sck.nobody")
        #expect(place.agent.asks.isEmpty)
        try place.writeAsk("ask.next", socket: asker.path)
        #expect(place.directoryChanged().isEmpty)
        // Said once: the bad files are not read again while they stay as they are.
        #expect(place.logCount("ask.fifo: it is not a regular file") == 1)
        #expect(place.logCount("ask.huge: it is 16385 bytes") == 1)
        #expect(place.agent.asks.map(\.file) == [dir + "/ask.next"])
        try place.agent.answer(try #require(place.agent.asks.first), with: typed("ok"))
        #expect(asker.received() == Array("+ok".utf8))
    }

    @Test func aFloodOfAskFilesIsCapped() throws {
        let place = try Place()
        let asker = try AskSocket(directory: place.base)
        try FileManager.default.createDirectory(atPath: place.directory, withIntermediateDirectories: true)
        for i in 0..<(PasswordAgent.maximumAsks + 8) {
            let text = "[Ask]\nSocket=\(asker.path)\nMessage=Question \(i)\n"
            try text.write(toFile: place.directory + "/ask.\(String(format: "%03d", i))", atomically: true, encoding: .utf8)
        }
        // Already there when the agent starts.
        #expect(place.agent.start())
        #expect(place.agent.rescan().isEmpty)
        #expect(place.agent.asks.count == PasswordAgent.maximumAsks)
        #expect(place.logContains("password agent: 32 questions open at once"))
        #expect(place.agent.asks.map(\.message) == (0..<PasswordAgent.maximumAsks).map { "Question \($0)" }, "the first in order of their names")
        // The rest wait until one is gone.
        try FileManager.default.removeItem(atPath: place.directory + "/ask.000")
        #expect(place.directoryChanged() == [place.directory + "/ask.000"])
        #expect(place.agent.asks.count == PasswordAgent.maximumAsks)
        #expect(place.agent.asks.last?.message == "Question \(PasswordAgent.maximumAsks)")
    }
}
