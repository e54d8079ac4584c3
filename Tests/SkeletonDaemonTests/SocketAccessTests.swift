import Foundation
import Testing

/// Who may use the control socket, checked with real clients running as other users (root is
/// needed to create them and switch to them), and the socket systemd passes through $LISTEN_FDS.
@Suite(.serialized) struct SocketAccessTests {
    static let setpriv = executable("setpriv")
    static let socketActivate = executable("systemd-socket-activate")
    static var canSwitchUsers: Bool { getuid() == 0 && setpriv != nil }
    static var canCreateAccounts: Bool { canSwitchUsers && executable("useradd", in: ["/usr/sbin", "/sbin"]) != nil }
    static let nobody: UInt32 = 65534

    static func executable(_ name: String, in directories: [String] = ["/usr/bin", "/bin"]) -> String? {
        directories.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `skeletonctl status --json` under `setpriv` with the given ids; `groups` nil keeps the user's
    /// supplementary groups from /etc/group, empty clears them.
    static func status(_ socket: String, uid: UInt32, gid: UInt32, groups: [UInt32]?) throws -> (status: Int32, out: String, err: String) {
        let groupOption = groups.map { $0.isEmpty ? "--clear-groups" : "--groups=" + $0.map(String.init).joined(separator: ",") }
            ?? "--init-groups"
        return try runTool(setpriv!, ["--reuid=\(uid)", "--regid=\(gid)", groupOption,
                                      builtExecutable("skeletonctl"), "--socket", socket, "status", "--json"])
    }

    @Test(.enabled(if: canSwitchUsers, "needs root and setpriv to connect as another user"))
    func anyoneElseIsRefused() throws {
        // 0666: the file lets everyone connect, so the refusal is the daemon's own check.
        let d = try DaemonProcess(settings: #"{"socket": {"mode": "0666"}}"#)
        let r = try Self.status(d.socketPath, uid: Self.nobody, gid: Self.nobody, groups: [])
        #expect(r.status == 1)
        #expect(r.err.contains("permission denied"), "\(r.err)")
        #expect(d.logContains("refused a control connection from uid 65534"))
    }

    @Test(.enabled(if: canCreateAccounts, "needs root, setpriv and useradd to create a member of the socket's group"))
    func membersOfTheSocketGroupAreLetIn() throws {
        let account = try TemporaryAccount()
        defer { account.remove() }
        let d = try DaemonProcess(settings: #"{"socket": {"mode": "0666", "group": "\#(account.group)"}}"#)
        var info = stat()
        #expect(stat(d.socketPath, &info) == 0)
        #expect(info.st_gid == account.gid, "the socket file gets the group")

        let listed = try Self.status(d.socketPath, uid: account.uid, gid: Self.nobody, groups: nil)
        #expect(listed.status == 0, "a user /etc/group lists in the group: \(listed.err)")
        #expect(listed.out.contains("\"state\":\"showing\""), "\(listed.out)")
        let primary = try Self.status(d.socketPath, uid: Self.nobody, gid: account.gid, groups: [])
        #expect(primary.status == 0, "a process whose primary group it is: \(primary.err)")
        #expect(primary.out.contains("\"state\":\"showing\""), "\(primary.out)")
        let outsider = try Self.status(d.socketPath, uid: Self.nobody, gid: Self.nobody, groups: [])
        #expect(outsider.status == 1)
        #expect(outsider.err.contains("permission denied"), "\(outsider.err)")
        #expect(d.logContains("refused a control connection from uid 65534"))
    }

    @Test(.enabled(if: socketActivate != nil, "needs systemd-socket-activate (Debian: systemd)"))
    func aSocketPassedThroughListenFDsIsServed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skeletond-activate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = directory.appendingPathComponent("skeletond.json")
        try "{}".write(to: settings, atomically: true, encoding: .utf8)
        let socketPath = directory.appendingPathComponent("control.sock").path

        // Without --accept it listens, and on the first connection execs the daemon with the
        // listening socket as fd 3 and LISTEN_FDS=1, LISTEN_PID set.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.socketActivate!)
        process.arguments = ["--listen=" + socketPath, builtExecutable("skeletond"), "run", "--config", settings.path,
                             "--socket", socketPath, "--layouts", directory.path, "--backend", "memory", "--size", "200x100",
                             "--layout", "none", "--frame-cache", "none"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = nil
        process.environment = environment
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }

        let client = try connectWhenListening(socketPath, seconds: 10)
        #expect(client.request(#"{"command": "ping", "id": 1}"#)?["pong"] == true)
        #expect(client.request(#"{"command": "quit"}"#)?["ok"] == true)
        process.waitUntilExit()
        let log = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(log)")
        #expect(log.contains("using the control socket passed by systemd (\(socketPath))"), "\(log)")
        #expect(!log.contains("listening on \(socketPath)"), "the daemon did not bind the path itself")
        #expect(FileManager.default.fileExists(atPath: socketPath), "the socket file is systemd's: left in place")
    }

    /// A client once the socket at `path` accepts connections.
    private func connectWhenListening(_ path: String, seconds: Double) throws -> TestClient {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let client = try? TestClient(path: path) { return client }
            guard Date() < deadline else { throw HarnessError("nothing listens on \(path) after \(seconds) s") }
            _ = waitReadable(-1, seconds: 0.01)
        }
    }
}
