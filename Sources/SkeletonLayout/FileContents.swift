#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with open(2) and read(2): the only system calls of this module. Plain
/// calls rather than Foundation keep the daemon's boot path short.
enum FileContents {
    /// The file's bytes, or why it cannot be read ("no such file", "permission denied", ...).
    static func read(_ path: String) -> Result<[UInt8], FileReadError> {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(FileReadError(code: errno)) }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { return .failure(FileReadError(code: errno)) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Calls `body` again while it fails with EINTR.
    private static func retryingOnInterrupt<T: BinaryInteger>(_ body: () -> T) -> T {
        while true {
            let result = body()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

/// A failed read: errno, described the way layout errors say it.
struct FileReadError: Error, CustomStringConvertible {
    var code: Int32

    var description: String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        default: return String(cString: strerror(code))
        }
    }
}
