import Foundation
import SkeletonDaemon
import SkeletonLayout

/// A control client of a `SteppedDaemon`: a real socket (`TestClient`) or a connection in memory
/// (`MemoryClient`). Reads never wait: the stepped loop has already run.
protocol SteppedClient: AnyObject {
    func send(_ bytes: [UInt8])
    /// As much as the connection takes now, without waiting; returns how many bytes.
    func sendNow(_ bytes: [UInt8]) -> Int
    /// The next reply line as JSON, or nil when none is whole yet.
    func readReply(seconds: Double) -> JSONValue?
    func readBytes(_ count: Int, seconds: Double) -> [UInt8]
}

extension SteppedClient {
    func send(_ text: String) { send(Array(text.utf8)) }
}

extension TestClient: SteppedClient {
    func sendNow(_ bytes: [UInt8]) -> Int {
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return max(0, n)
    }
}

/// One connection of a `MemoryTransport`, hung up when the test lets go of it.
final class MemoryClient: SteppedClient {
    let peer: MemoryTransport.Peer
    private var pending: [UInt8] = []

    init(_ peer: MemoryTransport.Peer) { self.peer = peer }

    deinit { peer.hangUp() }

    func send(_ bytes: [UInt8]) {
        let taken = peer.send(bytes)
        precondition(taken == bytes.count, "the connection's buffer is full: use sendNow")
    }

    func sendNow(_ bytes: [UInt8]) -> Int { peer.send(bytes) }

    func readReply(seconds: Double = 0) -> JSONValue? {
        pending += peer.receive()
        guard let newline = pending.firstIndex(of: 0x0A) else { return nil }
        let line = Array(pending[..<newline])
        pending.removeFirst(newline + 1)
        return try? JSONValue.parse(line)
    }

    func readBytes(_ count: Int, seconds: Double = 0) -> [UInt8] {
        pending += peer.receive()
        let taken = Array(pending.prefix(count))
        pending.removeFirst(taken.count)
        return taken
    }
}
