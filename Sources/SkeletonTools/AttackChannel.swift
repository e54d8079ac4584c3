import SkeletonLayout
import SkeletonSystem

/// One descriptor the attack loop writes to and reads from without ever blocking: a control
/// connection, Plymouth's socket or psplash's FIFO. Bytes queued go out as the peer takes them;
/// what the peer sends is kept, and counted in bytes and lines.
final class AttackChannel {
    let fd: FileDescriptor
    /// A socket (send with MSG_NOSIGNAL) or a FIFO (write).
    let isSocket: Bool
    private var outgoing: [UInt8] = []
    private var sent = 0
    /// Everything received since the channel opened.
    private(set) var received: [UInt8] = []
    private var consumed = 0
    /// Bytes and newlines received since the channel opened.
    private(set) var receivedCount = 0
    private(set) var linesReceived = 0
    /// The peer closed, or a read failed.
    private(set) var ended = false

    init(fd: FileDescriptor, isSocket: Bool) {
        self.fd = fd
        self.isSocket = isSocket
    }

    /// Bytes queued and not yet taken by the peer.
    var unsent: Int { outgoing.count - sent }

    func queue(_ bytes: [UInt8]) {
        if sent == outgoing.count { outgoing.removeAll(keepingCapacity: true); sent = 0 }
        outgoing += bytes
    }

    /// Writes what the peer takes now.
    func flush() {
        while sent < outgoing.count {
            let n: Int
            if isSocket {
                n = outgoing.withUnsafeBytes { raw in BenchIO.sendWithoutWaiting(fd, Array(raw[sent..<min(raw.count, sent + (1 << 20))])) }
            } else {
                n = BenchIO.writeWithoutWaiting(fd, outgoing, from: sent)
            }
            guard n > 0 else { return }
            sent += n
        }
    }

    /// Reads what is there (called when poll says so).
    func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = BenchIO.read(fd, into: &chunk)
        guard n > 0 else { ended = true; return }
        received += chunk[0..<n]
        receivedCount += n
        linesReceived += chunk[0..<n].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// The next whole line received, as JSON (`.null` when it is not JSON); nil before it is whole.
    func takeLine() -> JSONValue? {
        guard let newline = received[consumed...].firstIndex(of: 0x0A) else { return nil }
        let line = received[consumed..<newline]
        consumed = newline + 1
        return (try? JSONValue.parse(line)) ?? .null
    }

    /// Every line received, as JSON, those taken included.
    var allLines: [JSONValue] {
        received.split(separator: 0x0A).map { (try? JSONValue.parse($0)) ?? .null }
    }

    func close() { fd.close() }
}
