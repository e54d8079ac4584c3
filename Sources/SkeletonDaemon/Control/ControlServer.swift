import SkeletonLayout
import SkeletonLog
import SkeletonProtocol
import SkeletonSettings
import SkeletonSystem

/// The control socket and its clients: accepting (with peer credentials), reading lines,
/// running them through `execute`, writing replies. Fair and bounded: each loop turn reads at
/// most `ClientConnection.readChunk` bytes and runs at most `linesPerTurn` lines per client,
/// and a client whose replies pile up unread is neither read nor served until it reads.
final class ControlServer {
    let transport: any ControlTransport
    private let logger: Logger
    private(set) var clients: [FileDescriptor: ClientConnection] = [:]
    private var clientCounter = 0
    /// Runs one request; the reply goes to the client now or later (`reserve`/`fulfil`).
    var execute: (Request, ClientConnection) -> Void = { _, _ in }
    /// Set while too many commands wait for their turn: clients are neither read nor served
    /// (their bytes wait in the socket) until it is cleared.
    var paused = false

    static let maximumClients = 256

    init(transport: any ControlTransport, logger: Logger) {
        self.transport = transport
        self.logger = logger
    }

    /// What the loop waits for: new connections while there is room, input from clients that
    /// may send more, and room to write where replies are waiting.
    func addWatches(to list: inout [Watch]) {
        list.append(Watch(descriptor: transport.listening, events: clients.count < Self.maximumClients ? .readable : []))
        for client in clients.values {
            var events: PollEvents = []
            if client.wantsInput && !paused { events.insert(.readable) }
            if client.hasPendingOutput { events.insert(.writable) }
            list.append(Watch(descriptor: client.fd, events: events))
        }
    }

    /// Lines read and not yet run (a client over its turn's share, or waiting for its replies
    /// to be read): the loop turns again at once when some may run now.
    var hasRunnableLines: Bool { !paused && clients.values.contains { $0.hasQueuedLines && $0.isBelowHighWater } }

    /// Handles a ready descriptor; false when it is not the server's.
    func handle(_ fd: FileDescriptor, _ events: PollEvents) -> Bool {
        if fd == transport.listening {
            acceptClients()
            return true
        }
        guard let client = clients[fd] else { return false }
        if !events.isDisjoint(with: [.error, .invalid]) {
            drop(client)
            return true
        }
        if events.contains(.hangUp) {
            finish(client)
            return true
        }
        if events.contains(.writable) { flush(client) }
        if !client.isClosed && client.wantsInput && events.contains(.readable) { read(client) }
        return true
    }

    /// The peer is gone both ways (POLLHUP): what it sent is still read and carried out (a
    /// `hide` followed by a close must hide), then the connection goes. Bounded by what the
    /// kernel held for it.
    private func finish(_ client: ClientConnection) {
        var buffer = [UInt8](repeating: 0, count: ClientConnection.readChunk)
        while let count = try? buffer.withUnsafeMutableBytes({ try transport.read(client.fd, into: $0) }), count > 0 {
            client.received(buffer[0..<count])
        }
        for event in client.takeAllLines() {
            if case .line(let line) = event { handleLine(line, from: client) }
        }
        drop(client)
    }

    /// Runs queued lines, at most `linesPerTurn` per client, then writes what they answered.
    func runQueuedLines() {
        guard !paused else { return }
        for client in Array(clients.values) where client.hasQueuedLines {
            var count = 0
            while count < ClientConnection.linesPerTurn, !client.isClosed, let event = client.nextLine() {
                count += 1
                switch event {
                case .line(let line): handleLine(line, from: client)
                case .overlong:
                    client.reply(.error(id: nil, ProtocolError(.lineTooLong,
                        "request line longer than \(ClientConnection.lineLimit) bytes; the rest of that line is discarded")))
                }
            }
            flush(client)
        }
    }

    private func acceptClients() {
        while clients.count < Self.maximumClients {
            let fd: FileDescriptor
            let credentials: (uid: UInt32, gid: UInt32, pid: Int32)?
            do {
                guard let accepted = try transport.accept() else { return }
                (fd, credentials) = accepted
            } catch {
                logger.warning("\(error)")
                return
            }
            clientCounter += 1
            let client = ClientConnection(fd: fd, transport: transport, number: clientCounter, uid: credentials?.uid)
            clients[fd] = client
            if let credentials, transport.admits(uid: credentials.uid, gid: credentials.gid) {
                logger.debug("client \(client.number) connected (uid \(credentials.uid), pid \(credentials.pid))")
            } else {
                let who = credentials.map { "uid \($0.uid)" } ?? "an unknown peer"
                logger.limited(.warning, key: "refused connection", "refused a control connection from \(who): only root and the socket's group may connect")
                client.reply(.error(id: nil, ProtocolError(.permissionDenied,
                    "permission denied: only root and members of the socket's group may control skeletond")))
                _ = client.writePending()
                drop(client)
            }
        }
    }

    /// One read of at most `readChunk` bytes; its lines are queued for `runQueuedLines`.
    private func read(_ client: ClientConnection) {
        var buffer = [UInt8](repeating: 0, count: ClientConnection.readChunk)
        let count: Int?
        do { count = try buffer.withUnsafeMutableBytes { try transport.read(client.fd, into: $0) } } catch {
            drop(client)
            return
        }
        guard let count else { return }
        if count == 0 {
            // The peer will send no more; it may still read what it is owed.
            client.closeAfterFlush = true
            flush(client)
            return
        }
        client.received(buffer[0..<count])
    }

    func flush(_ client: ClientConnection) {
        guard !client.isClosed else { return }
        if !client.writePending() { drop(client); return }
        if client.unreadBytes > ClientConnection.unreadLimit {
            logger.warning("client \(client.number) does not read its replies (\(client.unreadBytes) bytes unread); closing it")
            drop(client)
            return
        }
        if client.isDone { drop(client) }
    }

    func drop(_ client: ClientConnection) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        client.isClosed = true
        transport.close(client.fd)
    }

    /// Writes what each client is owed (as far as it reads) and closes every connection and the socket.
    func close() {
        for client in clients.values {
            _ = client.writePending()
            drop(client)
        }
        transport.close()
    }

    private func handleLine(_ line: [UInt8], from client: ClientConnection) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        switch RequestDecoder.decode(line: line) {
        case .failure(let failure): client.reply(.error(id: failure.id, failure.error))
        case .success(let request): execute(request, client)
        }
    }
}
