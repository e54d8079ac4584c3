import SkeletonLog
import SkeletonPrompt
import SkeletonSystem

/// systemd's password agent protocol, from the agent's side: the ask files of a directory
/// (/run/systemd/ask-password), watched with inotify, read as they appear (a file that is not
/// regular, too big or not an ask file is said once and left), forgotten when they go (another
/// agent answered, or the asker gave up) or when their `NotAfter=` passes, and answered with one
/// datagram to their `Socket=`: "+" and the password, or "-" to cancel.
final class PasswordAgent {
    let directory: String
    private let logger: Logger
    private var watch: FileDescriptor?
    /// Open questions in the order they appeared.
    private(set) var asks: [PasswordAsk] = []
    /// Files that could not be read as questions, each said once until it changes.
    private var refused: [String: FileIdentity] = [:]
    /// Questions answered here whose files are still there (the asker removes them once it has
    /// read the answer; one whose asker is gone stays): not asked again.
    private var answered: [String: FileIdentity] = [:]

    /// More open questions than any boot asks at once; the rest wait until these are gone.
    static let maximumAsks = 32

    init(directory: String = PasswordAsk.directory, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Watches the directory (made, as systemd's own agents make it, when missing) and reads
    /// the questions already there. False when it cannot be watched.
    @discardableResult
    func start() -> Bool {
        if !SystemCalls.fileExists(directory) { try? SystemCalls.makeDirectories(directory, mode: 0o755) }
        guard let fd = SystemCalls.watchDirectoryChanges(directory) else {
            logger.warning("password agent: cannot watch \(directory): questions asked there are not shown")
            return false
        }
        watch = fd
        return true
    }

    func close() {
        watch?.close()
        watch = nil
        asks = []
    }

    func addWatches(to list: inout [Watch]) {
        if let watch { list.append(Watch(descriptor: watch, events: .readable)) }
    }

    /// Handles the watch's readiness; false when `fd` is not the watch.
    func handle(_ fd: FileDescriptor) -> Bool {
        guard fd == watch else { return false }
        SystemCalls.drainDirectoryWatch(fd)
        return true
    }

    /// Reads the directory again: questions that appeared are added, those gone are dropped.
    /// Returns the files of the questions that went.
    @discardableResult
    func rescan() -> [String] {
        let entries = SystemCalls.directoryEntries(directory).filter(PasswordAsk.isAskFile)
        // The usual start, with no question anywhere, runs none of the sets and sorts below.
        if entries.isEmpty && asks.isEmpty && refused.isEmpty && answered.isEmpty { return [] }
        let names = Set(entries)
        let files = Set(names.map { directory + "/" + $0 })
        let gone = asks.map(\.file).filter { !files.contains($0) }
        asks.removeAll { !files.contains($0.file) }
        refused = refused.filter { files.contains($0.key) }
        answered = answered.filter { files.contains($0.key) }
        for file in files.sorted() where !asks.contains(where: { $0.file == file }) {
            guard asks.count < Self.maximumAsks else {
                logger.limited(.warning, key: "password agent flood", "password agent: \(Self.maximumAsks) questions open at once; \(file) waits until one is gone")
                break
            }
            if let identity = SystemCalls.identity(atPath: file), refused[file] == identity || answered[file] == identity { continue }
            switch SystemCalls.readRegularFile(file, limit: PasswordAsk.sizeLimit).mapError({ AskFileError(file: file, reason: "\($0)") })
                .flatMap({ PasswordAsk.parse($0, file: file) }) {
            case .success(let ask):
                asks.append(ask)
                logger.info("password agent: \(file) asks \"\(ask.message)\"\(ask.id.map { " (\($0))" } ?? "")")
            case .failure(let error):
                if let identity = SystemCalls.identity(atPath: file) { refused[file] = identity }
                logger.warning("password agent: \(error); not answered")
            }
        }
        return gone
    }

    /// Questions whose asker stopped waiting by `now` (CLOCK_MONOTONIC seconds) are dropped;
    /// returns their files.
    func expire(now: Double) -> [String] {
        guard !asks.isEmpty else { return [] }
        let micro = UInt64(max(0, now) * 1_000_000)
        let expired = asks.filter { $0.hasExpired(atMicroseconds: micro) }.map(\.file)
        asks.removeAll { expired.contains($0.file) }
        for file in expired { logger.info("password agent: \(file) expired (NotAfter= passed)") }
        return expired
    }

    /// When the next open question expires (CLOCK_MONOTONIC seconds).
    var nextExpiry: Double? { asks.compactMap(\.notAfter).min().map { Double($0 + 1) / 1_000_000 } }

    /// Sends `secret` ("+" and the password) to `ask`'s socket; nil: cancels ("-"). The
    /// question is dropped either way. Throws when the asker's socket is gone.
    func answer(_ ask: PasswordAsk, with secret: SecretBuffer?) throws(Errno) {
        asks.removeAll { $0.file == ask.file }
        if let identity = SystemCalls.identity(atPath: ask.file) { answered[ask.file] = identity }
        if let secret {
            try secret.withBytes(prefix: [UInt8(ascii: "+")]) { (bytes) throws(Errno) in try SystemCalls.sendDatagram(to: ask.socket, bytes) }
        } else {
            var failure: Errno?
            [UInt8(ascii: "-")].withUnsafeBytes { bytes in
                do throws(Errno) { try SystemCalls.sendDatagram(to: ask.socket, bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }
}
