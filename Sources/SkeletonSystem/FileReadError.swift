/// Why a whole file could not be read, said the way layout and settings errors say it.
public enum FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    case failed(Errno)
    /// A FIFO, socket or device where a file was expected.
    case notRegular
    case directory
    case tooLarge(size: Int, limit: Int)

    public var description: String {
        switch self {
        case .failed(let errno) where SystemCalls.isNoSuchFile(errno.rawValue): return "no such file"
        case .failed(let errno) where SystemCalls.isPermissionDenied(errno.rawValue): return "permission denied"
        case .failed(let errno): return errno.text
        case .notRegular: return "it is not a regular file (a FIFO, socket or device)"
        case .directory: return "it is a directory"
        case .tooLarge(let size, let limit):
            let allowed = limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            return "it is \(size) bytes, more than the \(allowed) a file may have"
        }
    }
}
