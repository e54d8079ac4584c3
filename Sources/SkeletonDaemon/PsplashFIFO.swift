import SkeletonSettings
import SkeletonProtocol
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
    /// Carries out one command.
    var execute: (PsplashCommand) -> Void = { _ in }

    init(path: String, logger: Logger) throws(Errno) {
        self.path = path
        self.logger = logger
        let (fd, made, identity) = try SystemCalls.openFIFO(path)
        self.fd = fd
        self.made = made ? identity : nil
    }

    var watches: [Watch] { [Watch(descriptor: fd, events: .readable)] }

    /// Reads what writers sent; false when `ready` is not the FIFO.
    func handle(_ ready: FileDescriptor) -> Bool {
        guard ready == fd else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int?
            do {
                count = try buffer.withUnsafeMutableBytes { try fd.read(into: $0) }
            } catch {
                logger.warning("psplash: reading \(path): \(error)")
                return true
            }
            guard let count, count > 0 else { return true }
            for result in framer.push(buffer[..<count]) {
                switch result {
                case .success(let command): execute(command)
                case .failure(let error): logger.limited(.warning, key: "psplash line", "psplash: \(path): \(error); ignored")
                }
            }
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
