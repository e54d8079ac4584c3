import SkeletonSystem

/// A `skeletond run` process for one attack, on the memory output at 640x400 with the frame
/// cache off, a snapshot, Plymouth's protocol on an abstract socket of its own and psplash's
/// FIFO; in a directory of its own (settings, layouts, pictures, log, snapshot, FIFO) that
/// `stop` removes.
final class AttackDaemon {
    let directory: String
    let layoutsDirectory: String
    let socketPath: String
    let logPath: String
    let snapshotPath: String
    let fifoPath: String
    /// Plymouth's abstract socket, with its leading "@".
    let plymouthSocket: String
    let pid: Int32

    /// Starts the daemon in `directory` (made afresh; its last component names Plymouth's
    /// socket too) showing the layout `start` of `layouts` (name to JSON text), with `files`
    /// (name to bytes) written into the directory first.
    init(executable: String, directory: String, layouts: [String: String], start: String, files: [String: [UInt8]]) throws(ToolError) {
        self.directory = directory
        layoutsDirectory = directory + "/layouts"
        socketPath = directory + "/control.sock"
        logPath = directory + "/daemon.log"
        snapshotPath = directory + "/snapshot.png"
        fifoPath = directory + "/psplash_fifo"
        let plymouthName = "/" + (directory.split(separator: "/").last.map(String.init) ?? "skeletond-attack")
        plymouthSocket = "@" + plymouthName
        Self.remove(directory)
        BenchIO.makeDirectory(directory)
        BenchIO.makeDirectory(layoutsDirectory)
        for (name, text) in layouts { try BenchIO.writeFile(layoutsDirectory + "/\(name).json", Array(text.utf8)) }
        for (name, bytes) in files { try BenchIO.writeFile(directory + "/" + name, bytes) }
        let settingsPath = directory + "/settings.json"
        try BenchIO.writeFile(settingsPath, Array(#"""
            {"plymouth": {"listen": true, "socket": "\#(plymouthName)"}, "psplash": {"fifo": "\#(fifoPath)"}}
            """#.utf8))
        pid = try BenchIO.spawn([executable, "run", "--config", settingsPath, "--socket", socketPath, "--layouts", layoutsDirectory,
                                 "--layout", start, "--backend", "memory", "--size", "640x400", "--frame-cache", "none",
                                 "--snapshot", snapshotPath], standardErrorTo: logPath)
    }

    /// A control connection, once the daemon listens (at most 20 s); nil when it never did.
    func connect() -> FileDescriptor? { whileRunning { BenchIO.connect(socketPath) } }

    /// Plymouth's socket and psplash's FIFO, once the daemon has them: it makes them after its
    /// control socket listens, so a client that comes as soon as `connect` succeeds may find
    /// neither yet.
    func connectPlymouth() -> FileDescriptor? { whileRunning { BenchIO.connect(plymouthSocket) } }
    func openFIFO() -> FileDescriptor? { whileRunning { BenchIO.openForWriting(fifoPath) } }

    /// `attempt` every 10 ms for up to 20 s, while the daemon runs.
    private func whileRunning(_ attempt: () -> FileDescriptor?) -> FileDescriptor? {
        let deadline = BenchIO.monotonicSeconds() + 20
        while BenchIO.monotonicSeconds() < deadline && BenchIO.isRunning(pid) {
            if let fd = attempt() { return fd }
            BenchIO.sleep(seconds: 0.01)
        }
        return nil
    }

    /// The daemon's log so far.
    var log: String { BenchIO.readFile(logPath).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// VmRSS and VmHWM, in KiB.
    var memory: (resident: Int, peak: Int) {
        let status = BenchIO.processStatus(pid)
        return (status["VmRSS"] ?? 0, status["VmHWM"] ?? 0)
    }

    /// SIGTERM, the wait for the exit, and the directory removed.
    func stop() {
        BenchIO.stop(pid)
        Self.remove(directory)
    }

    private static func remove(_ directory: String) {
        for name in SystemCalls.directoryEntries(directory + "/layouts") { BenchIO.removeFile(directory + "/layouts/" + name) }
        BenchIO.removeDirectory(directory + "/layouts")
        for name in SystemCalls.directoryEntries(directory) { BenchIO.removeFile(directory + "/" + name) }
        BenchIO.removeDirectory(directory)
    }
}
