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
    /// Layouts and settings are a few kilobytes; anything past this is not one.
    static let sizeLimit = 16 << 20

    /// The file's bytes, or why it cannot be read ("no such file", "permission denied", ...).
    /// Opened without blocking and read only when it is a regular file: a FIFO or a device in
    /// its place must not hang the daemon.
    static func read(_ path: String) -> Result<[UInt8], FileReadError> {
        let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return .failure(FileReadError(code: errno)) }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(FileReadError(code: errno)) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(FileReadError(code: EISDIR)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(FileReadError(notRegular: ())) }
        guard Int(info.st_size) <= sizeLimit else { return .failure(FileReadError(tooLarge: Int(info.st_size))) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { return .failure(FileReadError(code: errno)) }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > sizeLimit { return .failure(FileReadError(tooLarge: bytes.count)) }
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

/// A failed read: errno, or a file that is not a layout's kind of file, described the way
/// layout errors say it.
struct FileReadError: Error, CustomStringConvertible {
    var code: Int32
    private var problem: String?

    init(code: Int32) { self.code = code }
    init(notRegular: Void) {
        code = EINVAL
        problem = "it is not a regular file (a FIFO, socket or device)"
    }
    init(tooLarge size: Int) {
        code = EFBIG
        problem = "it is \(size) bytes, more than the \(FileContents.sizeLimit >> 20) MiB a file may have"
    }

    var description: String {
        if let problem { return problem }
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        default: return String(cString: strerror(code))
        }
    }
}
