import SkeletonLog
import SkeletonProtocol
import SkeletonSettings
import SkeletonSystem

/// psplash's FIFO (`/run/psplash_fifo` on Yocto images): the commands `psplash-write` and boot
/// scripts write (`PROGRESS N`, `MSG TEXT`, `QUIT`), read as psplash reads them, so images whose
/// scripts drive psplash drive skeletond unchanged. The FIFO is made if missing, and removed on
/// close only when the daemon made it and it is still that FIFO (whatever was put at its path
/// since stays); the daemon holds its write end as well, so writers coming and going never end it.
final class PsplashFIFO {
    let path: String
    private let fd: FileDescriptor
    /// The FIFO the daemon made, to remove at close; nil when it was there before.
    private let made: FileIdentity?
    private let logger: Logger
    private var framer = PsplashFramer()
    /// Commands read and not carried out yet: at most `commandsPerTurn` run in one loop turn,
    /// and the FIFO is read again only once they have, so a writer that never stops holds up
    /// neither the screen nor the socket.
    private var queue: [Result<PsplashCommand, PsplashError>] = []
    private var queueStart = 0
    /// Carries out one command.
    var execute: (PsplashCommand) -> Void = { _ in }
    /// Commands carried out (or refused) since the start.
    private(set) var commandsHandled = 0

    /// Bytes read from the FIFO in one loop turn.
    static let bytesPerTurn = 16 * 1024
    /// Commands carried out in one loop turn.
    static let commandsPerTurn = 32

    init(path: String, logger: Logger) throws(Errno) {
        self.path = path
        self.logger = logger
        let (fd, made, identity) = try SystemCalls.openFIFO(path)
        self.fd = fd
        self.made = made ? identity : nil
    }

    /// The FIFO is watched while nothing read waits to be carried out.
    func addWatches(to list: inout [Watch]) {
        if !hasQueuedCommands { list.append(Watch(descriptor: fd, events: .readable)) }
    }

    var hasQueuedCommands: Bool { queueStart < queue.count }

    /// Reads at most `bytesPerTurn` of what writers sent (carried out by `runQueuedCommands`,
    /// at the end of the turn); false when `ready` is not the FIFO.
    func handle(_ ready: FileDescriptor) -> Bool {
        guard ready == fd else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var read = 0
        while read < Self.bytesPerTurn {
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch {
                logger.warning("psplash: reading \(path): \(error)")
                break
            }
            guard let count, count > 0 else { break }
            read += count
            queue += framer.push(buffer[..<count])
        }
        return true
    }

    /// Carries out at most `commandsPerTurn` of the commands read.
    func runQueuedCommands() {
        let end = min(queue.count, queueStart + Self.commandsPerTurn)
        while queueStart < end {
            let result = queue[queueStart]
            queueStart += 1
            commandsHandled += 1
            switch result {
            case .success(let command): execute(command)
            case .failure(let error): logger.limited(.warning, key: "psplash line", "psplash: \(path): \(error); ignored")
            }
        }
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: queue.count < 1024)
            queueStart = 0
        }
    }

    func close() {
        fd.close()
        guard let made else { return }
        if SystemCalls.identity(atPath: path) == made {
            try? SystemCalls.unlink(path)
        } else {
            logger.warning("psplash: \(path) is no longer the FIFO this daemon made; left in place")
        }
    }
}
