import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import SkeletonSettings
import SkeletonSystem

/// Plymouth's socket: the abstract Unix socket `/org/freedesktop/plymouthd` that Plymouth's
/// clients (`plymouth`, systemd's units, cryptsetup's password agents, distribution scripts)
/// talk to, answered here the way plymouthd answers. Only root may drive it, as with plymouthd
/// (an abstract socket has no file permissions); others get a NAK. Each request is answered
/// at once, except a password or a question, whose answer comes when it is typed (the
/// connection's later requests wait for it); a connection whose replies pile up unread is closed. Clients that connect and never
/// send (or send half a request and stop) cannot lock the others out: at the connection limit,
/// the one that has been quiet longest is closed for the newcomer.
final class PlymouthServer {
    let name: String
    private let listener: FileDescriptor
    private let logger: Logger
    private var connections: [FileDescriptor: Connection] = [:]
    /// Counts accepts and reads: a connection's `lastActive` orders it by how long it has been quiet.
    private var activity = 0
    /// Carries out one request and says what to answer; nil: the answer comes later, through
    /// `fulfil` with the ticket.
    var execute: (PlymouthRequest, PlymouthTicket) -> PlymouthReply? = { _, _ in .nak }
    /// A request answered later whose client went away before the answer.
    var abandoned: (PlymouthTicket) -> Void = { _ in }
    private var serial = 0

    static let maximumConnections = 64
    private static let unreadLimit = 4096
    /// Requests carried out for one connection in one loop turn; the rest wait, and the
    /// connection is not read again until they have run.
    static let requestsPerTurn = 32

    private final class Connection {
        let fd: FileDescriptor
        let uid: UInt32?
        var framer = PlymouthFramer()
        /// Requests cut from what was read and not carried out yet.
        var queue: [PlymouthRequest] = []
        var queueStart = 0
        var output: [UInt8] = []
        var lastActive: Int
        /// The request whose answer comes later; the requests after it wait.
        var pending: PlymouthTicket?

        var hasQueuedRequests: Bool { queueStart < queue.count }
        /// Something to run this turn: requests, or a stream that cannot be cut to answer and close.
        var hasWork: Bool { (hasQueuedRequests && pending == nil) || (framer.isBroken && pending == nil) }

        init(fd: FileDescriptor, uid: UInt32?, lastActive: Int) {
            self.fd = fd
            self.uid = uid
            self.lastActive = lastActive
        }
    }

    /// Listens on the abstract socket `name`; throws when it is taken (plymouthd itself runs).
    init(name: String, logger: Logger) throws(Errno) {
        self.name = name
        self.logger = logger
        listener = try SystemCalls.unixListen("@" + name, backlog: 32)
    }

    func addWatches(to list: inout [Watch]) {
        list.append(Watch(descriptor: listener, events: .readable))
        for c in connections.values {
            var events: PollEvents = c.hasQueuedRequests ? [] : .readable
            if !c.output.isEmpty { events.insert(.writable) }
            list.append(Watch(descriptor: c.fd, events: events))
        }
    }

    /// Requests read and waiting for their turn (or a broken stream to close): the loop turns
    /// again at once.
    var hasQueuedRequests: Bool { connections.values.contains { $0.hasWork } }

    /// Carries out at most `requestsPerTurn` waiting requests of each connection.
    func runQueuedRequests() {
        for c in Array(connections.values) where c.hasWork { run(c) }
    }

    /// Handles a ready descriptor; false when it is not the server's.
    func handle(_ fd: FileDescriptor, _ events: PollEvents) -> Bool {
        if fd == listener {
            accept()
            return true
        }
        guard let c = connections[fd] else { return false }
        if events.contains(.writable) { flush(c) }
        // A hang-up is read once what came before it has run.
        if connections[fd] != nil, !c.hasQueuedRequests, !events.isDisjoint(with: [.readable, .hangUp, .error]) { read(c) }
        return true
    }

    func close() {
        for c in connections.values { drop(c) }
        listener.close()
    }

    private func accept() {
        while true {
            let fd: FileDescriptor
            do {
                guard let accepted = try SystemCalls.accept(listener) else { return }
                fd = accepted
            } catch {
                logger.warning("plymouth: \(error)")
                return
            }
            if connections.count >= Self.maximumConnections, let quietest = connections.values.min(by: { $0.lastActive < $1.lastActive }) {
                logger.warning("plymouth: \(Self.maximumConnections) connections open; closing the one quiet longest"
                               + (quietest.framer.bufferedCount > 0 ? " (part of a request sent, \(quietest.framer.bufferedCount) bytes, then nothing)" : ""))
                drop(quietest)
            }
            activity += 1
            connections[fd] = Connection(fd: fd, uid: (try? SystemCalls.peerCredentials(fd))?.uid, lastActive: activity)
        }
    }

    private func read(_ c: Connection) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count: Int?
        do { count = try buffer.withUnsafeMutableBytes { try c.fd.read(into: $0) } } catch {
            drop(c)
            return
        }
        guard let count else { return }
        if count == 0 {
            drop(c)
            return
        }
        activity += 1
        c.lastActive = activity
        c.framer.append(buffer[0..<count])
        while let request = c.framer.next() { c.queue.append(request) }
    }

    /// Carries out at most `requestsPerTurn` of `c`'s waiting requests; once all have run, a
    /// stream that cannot be cut further is answered and closed.
    private func run(_ c: Connection) {
        let end = min(c.queue.count, c.queueStart + Self.requestsPerTurn)
        while c.queueStart < end, c.pending == nil {
            let request = c.queue[c.queueStart]
            c.queueStart += 1
            let reply: PlymouthReply
            if c.uid == 0 {
                serial += 1
                let ticket = PlymouthTicket(connection: c.fd, serial: serial)
                guard let now = execute(request, ticket) else {
                    c.pending = ticket
                    break
                }
                reply = now
            } else {
                logger.limited(.warning, key: "plymouth refused", "plymouth: refused a request from uid \(c.uid.map(String.init) ?? "unknown"): only root may drive the splash")
                reply = .nak
            }
            c.output += reply.bytes
        }
        if !c.hasQueuedRequests {
            c.queue.removeAll(keepingCapacity: true)
            c.queueStart = 0
        }
        if !c.hasQueuedRequests && c.framer.isBroken {
            logger.limited(.warning, key: "plymouth framing", "plymouth: a request whose argument does not end where its size says; answered with a NAK and closed the connection")
            c.output += PlymouthReply.nak.bytes
            flush(c)
            drop(c)
            return
        }
        flush(c)
    }

    /// The answer to a request `execute` left pending; false when its client has gone.
    @discardableResult
    func fulfil(_ ticket: PlymouthTicket, with reply: PlymouthReply) -> Bool {
        guard let c = connections[ticket.connection], c.pending == ticket else { return false }
        c.pending = nil
        c.output += reply.bytes
        flush(c)
        return true
    }

    /// A password as the answer to a pending request: written from memory that is wiped
    /// afterwards (what the socket does not take at once waits in the connection's output).
    @discardableResult
    func fulfil(_ ticket: PlymouthTicket, secret: SecretBuffer) -> Bool {
        guard let c = connections[ticket.connection], c.pending == ticket else { return false }
        c.pending = nil
        flush(c)
        secret.withBytes(prefix: PlymouthReply.answerHeader(size: secret.byteCount)) { bytes in
            let sent = c.output.isEmpty ? SystemCalls.sendWithoutWaiting(c.fd, bytes) : 0
            if sent < bytes.count { c.output += bytes[sent...] }
        }
        flush(c)
        return true
    }

    private func flush(_ c: Connection) {
        while !c.output.isEmpty {
            let sent = SystemCalls.sendWithoutWaiting(c.fd, c.output)
            // Nothing taken: the socket is full, or the peer went (its hang-up is read next).
            if sent == 0 { break }
            c.output.removeFirst(sent)
        }
        if c.output.count > Self.unreadLimit {
            logger.warning("plymouth: a client does not read its replies; closing it")
            drop(c)
        }
    }

    private func drop(_ c: Connection) {
        guard connections.removeValue(forKey: c.fd) != nil else { return }
        c.fd.close()
        if let ticket = c.pending { abandoned(ticket) }
    }
}
