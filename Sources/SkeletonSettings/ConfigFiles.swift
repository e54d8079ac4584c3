import SkeletonSystem

/// Where the daemon reads its settings and layout files: the file system (`system`), or files
/// held in memory (`memory`, for the stepped loop of tests, which then needs no file system).
public struct ConfigFiles: Sendable {
    private let reader: @Sendable (String, Int) -> Result<[UInt8], FileReadError>

    /// `read`: a file's bytes, or why there are none (more than the limit's bytes: `tooLarge`).
    public init(read: @escaping @Sendable (String, Int) -> Result<[UInt8], FileReadError>) { self.reader = read }

    /// The file's bytes, or why there are none.
    public func read(_ path: String, limit: Int = 16 << 20) -> Result<[UInt8], FileReadError> { reader(path, limit) }

    public static let system = ConfigFiles { SystemCalls.readRegularFile($0, limit: $1) }

    /// Files by absolute path; any other path is missing.
    public static func memory(_ files: [String: [UInt8]]) -> ConfigFiles {
        ConfigFiles { path, limit in
            guard let bytes = files[path] else { return .failure(.failed(Errno(2, call: "open \(path)"))) }  // ENOENT
            return bytes.count > limit ? .failure(.tooLarge(size: bytes.count, limit: limit)) : .success(bytes)
        }
    }

    public func exists(_ path: String) -> Bool {
        if case .failure(.failed(let errno)) = read(path), SystemCalls.isNoSuchFile(errno.rawValue) { return false }
        return true
    }
}
