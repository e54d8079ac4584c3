import SkeletonSystem

/// Kept beside the control socket while the skeleton is hidden, so that a daemon restarted after
/// the app took over does not cover the app again. Named after the socket (each daemon has its
/// own), it holds the boot it was written in (`/proc/sys/kernel/random/boot_id`): a mark from an
/// earlier boot, left where /run is not a tmpfs, counts as absent.
public struct HiddenMark: Sendable, Equatable {
    public let path: String
    /// Where the current boot's id is read; tests point it elsewhere.
    let bootIDPath: String

    public init(socketPath: String, bootIDPath: String = "/proc/sys/kernel/random/boot_id") {
        self.init(path: socketPath + ".hidden", bootIDPath: bootIDPath)
    }

    package init(path: String, bootIDPath: String = "/proc/sys/kernel/random/boot_id") {
        self.path = path
        self.bootIDPath = bootIDPath
    }

    public enum State: Sendable, Equatable {
        case absent
        /// Written in this boot: the skeleton stays hidden.
        case set
        /// Written in another boot (or unreadable): ignored.
        case stale
    }

    /// Only an existing mark costs a read of the boot id (the boot path checks this first thing).
    public var state: State {
        guard SystemCalls.fileExists(path) else { return .absent }
        guard let boot = Self.bootID(bootIDPath),
              let written = SystemCalls.readFile(path, limit: 64) else { return .stale }
        return written == boot ? .set : .stale
    }

    /// Records that the skeleton is hidden in this boot. Not synced to the disk: the mark counts
    /// in this boot only, which a crash of the machine ends anyway.
    public func set() throws(Errno) {
        let id = Self.bootID(bootIDPath) ?? []
        let written = id.withUnsafeBytes { raw in
            Result { () throws(Errno) in try SystemCalls.writeFileAtomically(path, [raw], durable: false) }
        }
        try written.get()
    }

    /// Removes the mark (a show), whatever boot wrote it.
    public func clear() throws(Errno) {
        if SystemCalls.fileExists(path) { try SystemCalls.unlink(path) }
    }

    private static func bootID(_ path: String) -> [UInt8]? {
        SystemCalls.readFile(path, limit: 64)
    }
}
