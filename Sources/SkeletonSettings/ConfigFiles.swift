import SkeletonSystem

/// Where the daemon reads its settings and layout files: the file system (`system`), or files
/// held in memory (`memory`, for the stepped loop of tests, which then needs no file system).
public struct ConfigFiles: Sendable {
    /// The file's bytes, or why there are none.
    public let read: @Sendable (String) -> Result<[UInt8], FileReadError>

    public init(read: @escaping @Sendable (String) -> Result<[UInt8], FileReadError>) { self.read = read }

    public static let system = ConfigFiles { SystemCalls.readRegularFile($0) }

    /// Files by absolute path; any other path is missing.
    public static func memory(_ files: [String: [UInt8]]) -> ConfigFiles {
        ConfigFiles { path in files[path].map { .success($0) } ?? .failure(.failed(Errno(2, call: "open \(path)"))) }  // ENOENT
    }

    public func exists(_ path: String) -> Bool {
        if case .failure(.failed(let errno)) = read(path), SystemCalls.isNoSuchFile(errno.rawValue) { return false }
        return true
    }
}
