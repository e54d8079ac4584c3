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

    /// Sends one request and reads its reply, waiting at most `timeout` seconds for it: a
    /// script at boot must never hang on a daemon that stopped answering.
    func send(_ request: Request, timeout: Double) -> Result<Reply, ClientFailure> {
        let deadline = monotonicNow() + timeout
        var bytes = RequestEncoder.line(request)
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
            guard waitReadable(until: deadline) else {
                return .failure(ClientFailure("no reply from skeletond at \(path) within \(JSONValue.formatNumber(timeout)) s"))
            }
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

    private func monotonicNow() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// poll(2) until readable or the deadline passes; EINTR retried.
    private func waitReadable(until deadline: Double) -> Bool {
        while true {
            let remaining = deadline - monotonicNow()
            if remaining <= 0 { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(remaining * 1000, 3_600_000).rounded(.up)))
            if r > 0 { return true }
            if r < 0 && errno != EINTR { return true }
        }
    }
}

struct ClientFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
