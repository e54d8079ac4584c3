#if canImport(Glibc)
import Glibc
#endif
import CSkeletonSystem
import SkeletonLayout
import SkeletonProtocol

/// A blocking connection to the daemon's control socket: one request line out, one reply in.
struct ControlClient {
    let fd: Int32
    let path: String

    /// Connects; the error text names the socket path.
    static func connect(path: String) -> Result<ControlClient, ClientFailure> {
        let fd = sk_unix_connect(path)
        if fd < 0 {
            let reason = String(cString: strerror(errno))
            return .failure(ClientFailure("cannot reach skeletond at \(path): \(reason)"))
        }
        return .success(ControlClient(fd: fd, path: path))
    }

    func send(_ request: JSONValue) -> Result<Reply, ClientFailure> {
        var bytes = Array((request.jsonText + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            // The daemon may answer and close before reading (a refused peer): read its reply.
            if n <= 0 { break }
            offset += n
        }
        let sentAll = offset == bytes.count
        var framer = LineFramer(limit: 16 * 1024 * 1024)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                return .failure(ClientFailure(sentAll ? "skeletond at \(path) closed the connection without a reply"
                                                      : "lost the connection to skeletond at \(path) while sending"))
            }
            for event in framer.append(buffer[0..<n]) {
                guard case .line(let line) = event else { continue }
                guard let json = try? JSONValue.parse(line) else {
                    return .failure(ClientFailure("skeletond at \(path) sent a reply that is not JSON"))
                }
                return .success(Reply(json: json))
            }
        }
    }

    func close() { Glibc.close(fd) }
}

struct ClientFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
