import CSkeletonSystem
import Foundation
import SkeletonLayout
import Testing

/// The package root, from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func builtExecutable(_ name: String) -> String {
    packageRoot.appendingPathComponent(".build/debug/\(name)").path
}

/// Waits for a descriptor to become readable, at most `seconds`; true when it did.
func waitReadable(_ fd: Int32, seconds: Double) -> Bool {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let r = poll(&p, 1, Int32(seconds * 1000))
    return r > 0
}

/// A real `skeletond run` process on a temporary socket, with a notify socket to know when it is ready.
final class DaemonProcess: @unchecked Sendable {
    let directory: URL
    let socketPath: String
    let layoutsDirectory: URL
    let process = Process()
    /// The last process using a directory removes it.
    private var ownsDirectory: Bool
    let stderrPipe = Pipe()
    private var stderrData = Data()
    private let lock = NSLock()
    private(set) var readyMessage: String?
    /// Where the daemon's sd_notify datagrams arrive ($NOTIFY_SOCKET), open until the end.
    private let notifyFD: Int32

    init(layouts: [String: String] = ["default": TestLayouts.simpleText], startLayout: String? = "default",
         settings: String? = nil, frameCache: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:],
         waitForReady: Bool = true, sameDirectoryAs previous: DaemonProcess? = nil, executable: String = "skeletond") throws {
        directory = previous?.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("skeletond-test-\(UUID().uuidString.prefix(8))")
        ownsDirectory = previous == nil
        previous?.ownsDirectory = false
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        layoutsDirectory = directory.appendingPathComponent("layouts")
        try FileManager.default.createDirectory(at: layoutsDirectory, withIntermediateDirectories: true)
        for (name, text) in layouts {
            try text.write(to: layoutsDirectory.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
        }
        socketPath = directory.appendingPathComponent("control.sock").path
        let settingsFile = directory.appendingPathComponent("skeletond.json")
        try (settings ?? "{}").write(to: settingsFile, atomically: true, encoding: .utf8)
        let notifyPath = directory.appendingPathComponent("notify.sock").path
        try? FileManager.default.removeItem(atPath: notifyPath)
        notifyFD = sk_unix_datagram_bind(notifyPath)
        process.executableURL = URL(fileURLWithPath: builtExecutable(executable))
        var arguments = ["run", "--config", settingsFile.path, "--socket", socketPath, "--layouts", layoutsDirectory.path,
                         "--backend", "memory", "--size", "200x100", "--log-level", "debug"]
        arguments += ["--layout", startLayout ?? "none", "--frame-cache", frameCache ?? "none"]
        process.arguments = arguments + extraArguments
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = notifyPath
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardError = stderrPipe
        process.standardOutput = FileHandle.nullDevice
        stderrPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock(); self.stderrData.append(data); self.lock.unlock()
        }
        try process.run()
        if waitForReady {
            guard let message = nextNotifyMessage(seconds: 20) else {
                process.terminate()
                throw HarnessError("skeletond did not send READY=1 within 20 s; stderr: \(log)")
            }
            readyMessage = message
        }
    }

    /// The next sd_notify datagram the daemon sends, waiting at most `seconds`.
    func nextNotifyMessage(seconds: Double) -> String? {
        guard waitReadable(notifyFD, seconds: seconds) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(notifyFD, &buffer, buffer.count)
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : nil
    }

    var log: String {
        lock.lock(); defer { lock.unlock() }
        return String(decoding: stderrData, as: UTF8.self)
    }

    /// Whether the daemon's stderr contains `text`, waiting for it to arrive (the pipe is read
    /// asynchronously) at most `seconds`.
    func logContains(_ text: String, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !log.contains(text) {
            if Date() >= deadline || (!process.isRunning && stderrPipe.fileHandleForReading.readabilityHandler == nil) { return false }
            _ = waitReadable(-1, seconds: 0.01)
        }
        return true
    }

    func connect() throws -> TestClient { try TestClient(path: socketPath) }

    /// Sends a signal and waits for the process to end; returns its exit status.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        return waitForExit()
    }

    func waitForExit(seconds: Double = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { _ = waitReadable(-1, seconds: 0.01) }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        // Take what is still in the pipe, then stop reading it asynchronously.
        stderrPipe.fileHandleForReading.readabilityHandler = nil
        let rest = stderrPipe.fileHandleForReading.readDataToEndOfFile()
        lock.lock(); stderrData.append(rest); lock.unlock()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        close(notifyFD)
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A raw protocol client: bytes in, reply lines out, with timeouts.
final class TestClient {
    let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = sk_unix_connect(path)
        if fd < 0 { throw HarnessError("cannot connect to \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Exactly `count` bytes, or what came before a timeout or the end of the stream.
    func readBytes(_ count: Int, seconds: Double = 10) -> [UInt8] {
        while pending.count < count {
            guard waitReadable(fd, seconds: seconds) else { break }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            pending += buffer[0..<n]
        }
        let taken = Array(pending.prefix(count))
        pending.removeFirst(taken.count)
        return taken
    }

    /// The next reply line as JSON, or nil on timeout or end of stream.
    func readReply(seconds: Double = 10) -> JSONValue? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                return try? JSONValue.parse(line)
            }
            guard waitReadable(fd, seconds: seconds) else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return nil }
            pending += buffer[0..<n]
        }
    }

    func request(_ json: String, seconds: Double = 10) -> JSONValue? {
        send(json + "\n")
        return readReply(seconds: seconds)
    }

    /// Asks `status` until the memory output has written `count` snapshots (they are written
    /// off the daemon's loop), at most `seconds`.
    func awaitSnapshots(_ count: Int, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard case .array(let outputs)? = request(#"{"command": "status"}"#)?["outputs"] else { return false }
            let written = outputs.first?["snapshotsWritten"]?.numberValue ?? 0
            if Int(written) >= count { return true }
            _ = waitReadable(-1, seconds: 0.01)
        }
        return false
    }

    /// Reads until the peer closes; returns the bytes read, or nil if it stayed open past the timeout.
    func readUntilClosed(seconds: Double) -> Int? {
        var total = pending.count
        pending.removeAll()
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            guard waitReadable(fd, seconds: 1) else { continue }
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return total }
            total += n
        }
        return nil
    }
}

/// Runs a command to completion and returns its exit status, stdout and stderr.
func runTool(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}
