#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// Control connections: accepting (with peer credentials), reading lines, writing replies.
extension Daemon {
    func acceptClients() {
        guard let socket else { return }
        while clients.count < Daemon.maximumClients {
            let fd: Int32
            do {
                guard let accepted = try SystemCalls.accept(socket.fd) else { return }
                fd = accepted
            } catch {
                logger.warning("\(error)")
                return
            }
            clientCounter += 1
            let client = ClientConnection(fd: fd, number: clientCounter)
            clients[fd] = client
            if let credentials = try? SystemCalls.peerCredentials(fd), socket.admits(uid: credentials.uid, gid: credentials.gid) {
                logger.debug("client \(client.number) connected (uid \(credentials.uid), pid \(credentials.pid))")
            } else {
                let who = (try? SystemCalls.peerCredentials(fd)).map { "uid \($0.uid)" } ?? "an unknown peer"
                logger.warning("refused a control connection from \(who): only root and the socket's group may connect")
                client.reply(.error(id: nil, ProtocolError(.permissionDenied,
                    "permission denied: only root and members of the socket's group may control skeletond")))
                client.closeAfterFlush = true
                _ = client.writePending()
                drop(client)
            }
        }
    }

    func service(_ client: ClientConnection, events: Int32) {
        if events & (POLLERR | POLLNVAL) != 0 { drop(client); return }
        if events & POLLIN != 0 || events & POLLHUP != 0 {
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let n: Int?
                do { n = try buffer.withUnsafeMutableBytes { try SystemCalls.read(client.fd, into: $0) } } catch {
                    drop(client); return
                }
                guard let count = n else { break }
                if count == 0 {
                    // Peer gone both ways (POLLHUP): nobody can read the replies still owed.
                    if events & POLLHUP != 0 { drop(client); return }
                    client.closeAfterFlush = true
                    break
                }
                for event in client.framer.append(buffer[0..<count]) {
                    switch event {
                    case .line(let line): handleLine(line, from: client)
                    case .overlong:
                        client.reply(.error(id: nil, ProtocolError(.lineTooLong,
                            "request line longer than \(ClientConnection.lineLimit) bytes; the rest of that line is discarded")))
                    }
                }
                if count < buffer.count { break }
            }
        }
        flush(client)
    }

    func flush(_ client: ClientConnection) {
        guard clients[client.fd] != nil else { return }
        if !client.writePending() { drop(client); return }
        if client.unreadBytes > ClientConnection.unreadLimit {
            logger.warning("client \(client.number) does not read its replies (\(client.unreadBytes) bytes unread); closing it")
            drop(client)
            return
        }
        if client.closeAfterFlush && !client.hasPendingOutput && !client.hasWaitingReplies { drop(client) }
    }

    func drop(_ client: ClientConnection) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        SystemCalls.close(client.fd)
        waiters.removeAll { $0.client == client.fd }
    }

    func handleLine(_ line: [UInt8], from client: ClientConnection) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        switch RequestDecoder.decode(line: line) {
        case .failure(let failure):
            client.reply(.error(id: failure.id, failure.error))
        case .success(let request):
            execute(request, from: client)
        }
    }
}
