import SkeletonSystem

/// Control connections in memory, as SwiftNIO's embedded channels are: descriptors that exist in
/// no kernel (numbered from 2^20, far above real ones), bytes that move between two bounded
/// buffers, and the readiness poll(2) would report for them (`readiness(of:)`, which the stepped
/// event source asks). A test connects a `Peer`, writes and reads its end; the daemon's server
/// sees an ordinary transport.
public final class MemoryTransport: ControlTransport {
    /// The client's end of one connection.
    public final class Peer {
        public let uid: UInt32
        public let gid: UInt32
        fileprivate var toDaemon: [UInt8] = []
        fileprivate var toPeer: [UInt8] = []
        /// The peer will send no more, and reads no more: poll(2)'s hang-up.
        public private(set) var hungUp = false
        /// The daemon closed its end.
        public fileprivate(set) var closedByDaemon = false
        fileprivate let capacity: Int

        fileprivate init(uid: UInt32, gid: UInt32, capacity: Int) {
            self.uid = uid
            self.gid = gid
            self.capacity = capacity
        }

        /// Queues bytes for the daemon, as much as the buffer takes (as a non-blocking send);
        /// returns how many.
        @discardableResult
        public func send(_ bytes: [UInt8]) -> Int {
            guard !hungUp, !closedByDaemon else { return 0 }
            let taken = min(bytes.count, capacity - toDaemon.count)
            toDaemon += bytes.prefix(taken)
            return taken
        }

        /// What the daemon wrote and this end has not read yet, at most `limit` bytes.
        public func receive(limit: Int = .max) -> [UInt8] {
            let taken = Array(toPeer.prefix(limit))
            toPeer.removeFirst(taken.count)
            return taken
        }

        /// Closes this end both ways (close(2) of a socket).
        public func hangUp() { hungUp = true }
    }

    /// Bytes a direction holds before a send takes nothing more (a Unix socket's buffer).
    public let capacity: Int
    public let listening: FileDescriptor
    private var waiting: [Peer] = []
    private var connections: [FileDescriptor: Peer] = [:]
    private var nextDescriptor: Int32
    private var listeningClosed = false
    /// Users and groups `admits` lets in (root always).
    public var admittedUsers: Set<UInt32> = [0]

    public init(capacity: Int = 208 * 1024) {
        self.capacity = capacity
        listening = FileDescriptor(rawValue: 1 << 20)
        nextDescriptor = (1 << 20) + 1
    }

    /// A new connection, waiting for the daemon to accept it.
    public func connect(uid: UInt32 = 0, gid: UInt32 = 0) -> Peer {
        let peer = Peer(uid: uid, gid: gid, capacity: capacity)
        waiting.append(peer)
        return peer
    }

    /// Whether `fd` is one of this transport's.
    public func owns(_ fd: FileDescriptor) -> Bool { fd == listening || connections[fd] != nil }

    /// What poll(2) would report for the watched descriptors of this transport.
    public func readiness(of watches: [Watch]) -> [Watch] {
        var ready: [Watch] = []
        for watch in watches {
            if watch.descriptor == listening {
                if !waiting.isEmpty && !listeningClosed && watch.events.contains(.readable) { ready.append(Watch(descriptor: listening, events: .readable)) }
                continue
            }
            guard let peer = connections[watch.descriptor] else { continue }
            var events: PollEvents = []
            if peer.hungUp { events.insert(.hangUp) }
            if watch.events.contains(.readable) && (!peer.toDaemon.isEmpty || peer.hungUp) { events.insert(.readable) }
            if watch.events.contains(.writable) && !peer.hungUp && peer.toPeer.count < capacity { events.insert(.writable) }
            if !events.isEmpty { ready.append(Watch(descriptor: watch.descriptor, events: events)) }
        }
        return ready
    }

    // MARK: ControlTransport

    public func accept() throws(Errno) -> (FileDescriptor, peer: (uid: UInt32, gid: UInt32, pid: Int32)?)? {
        guard !listeningClosed, !waiting.isEmpty else { return nil }
        let peer = waiting.removeFirst()
        let fd = FileDescriptor(rawValue: nextDescriptor)
        nextDescriptor += 1
        connections[fd] = peer
        return (fd, (peer.uid, peer.gid, 0))
    }

    public func admits(uid: UInt32, gid: UInt32) -> Bool { admittedUsers.contains(uid) }

    public func read(_ connection: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        guard let peer = connections[connection] else { throw Errno(9, call: "read") }  // EBADF
        if peer.toDaemon.isEmpty { return peer.hungUp ? 0 : nil }
        let count = min(buffer.count, peer.toDaemon.count)
        peer.toDaemon.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
        peer.toDaemon.removeFirst(count)
        return count
    }

    public func send(_ connection: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int? {
        guard let peer = connections[connection] else { throw Errno(9, call: "send") }  // EBADF
        if peer.hungUp { throw Errno(32, call: "send") }  // EPIPE
        let count = min(bytes.count, peer.capacity - peer.toPeer.count)
        guard count > 0 else { return nil }
        peer.toPeer += UnsafeRawBufferPointer(rebasing: bytes[0..<count])
        return count
    }

    public func close(_ connection: FileDescriptor) {
        connections.removeValue(forKey: connection)?.closedByDaemon = true
    }

    public func close() { listeningClosed = true }
}
