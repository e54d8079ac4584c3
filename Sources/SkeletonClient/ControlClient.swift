import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// A blocking connection to the daemon's control socket: one request line out, one reply in.
package struct ControlClient {
    package let fd: FileDescriptor
    package let path: String

    /// Connects; the error text names the socket path.
    package static func connect(path: String) -> Result<ControlClient, ClientFailure> {
        do {
            return .success(ControlClient(fd: try SystemCalls.unixConnect(path), path: path))
        } catch {
            return .failure(ClientFailure("cannot reach skeletond at \(path): \(error.text)"))
        }
    }

    /// Sends one request and reads its reply, waiting at most `timeout` seconds for it: a
    /// script at boot must never hang on a daemon that stopped answering.
    package func send(_ request: Request, timeout: Double) -> Result<Reply, ClientFailure> {
        let deadline = SystemCalls.monotonicSeconds() + timeout
        let bytes = RequestEncoder.line(request)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in try? fd.send(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            // The daemon may answer and close before reading (a refused peer): read its reply.
            guard let n, n > 0 else { break }
            offset += n
        }
        let sentAll = offset == bytes.count
        var framer = LineFramer(limit: 16 * 1024 * 1024)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            guard waitReadable(until: deadline) else {
                return .failure(ClientFailure("no reply from skeletond at \(path) within \(JSONValue.formatNumber(timeout)) s"))
            }
            let read = buffer.withUnsafeMutableBytes { raw in try? fd.read(into: raw) }
            guard let n = read, n > 0 else {
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

    package func close() { fd.close() }

    /// poll(2) until readable (or hung up) or the deadline passes.
    private func waitReadable(until deadline: Double) -> Bool {
        while true {
            let remaining = deadline - SystemCalls.monotonicSeconds()
            if remaining <= 0 { return false }
            let ready = SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)],
                                              timeoutMilliseconds: Int32(min(remaining * 1000, 3_600_000).rounded(.up)))
            if !ready.isEmpty { return true }
        }
    }
}

package struct ClientFailure: Error {
    package var message: String
    package init(_ message: String) { self.message = message }
}
