import SkeletonBackend
import SkeletonSettings
import SkeletonSystem
/// The listening control socket: created with its mode and group (replacing a stale file from a
/// crash, refusing a live one), or inherited through systemd socket activation.
final class ControlSocket: ControlTransport {
    let fd: FileDescriptor
    let path: String
    /// False for an inherited socket: systemd owns its file.
    let ownsFile: Bool
    let allowedGroup: UInt32?

    private init(fd: FileDescriptor, path: String, ownsFile: Bool, allowedGroup: UInt32?) {
        self.fd = fd
        self.path = path
        self.ownsFile = ownsFile
        self.allowedGroup = allowedGroup
    }

    /// The socket from $LISTEN_FDS when systemd passed one to this process.
    static func activated(path: String, group: String?) -> ControlSocket? {
        guard let pid = SystemCalls.environment("LISTEN_PID"), Int32(pid) == SystemCalls.processID,
              let count = SystemCalls.environment("LISTEN_FDS").flatMap(Int.init), count >= 1 else { return nil }
        SystemCalls.unsetEnvironment("LISTEN_PID")
        SystemCalls.unsetEnvironment("LISTEN_FDS")
        SystemCalls.unsetEnvironment("LISTEN_FDNAMES")
        let fd = FileDescriptor(rawValue: 3)
        guard SystemCalls.isUnixListener(fd) else { return nil }
        fd.setNonBlocking()
        fd.setCloseOnExec()
        return ControlSocket(fd: fd, path: path, ownsFile: false, allowedGroup: group.flatMap(GroupDatabase.gid(of:)))
    }

    static func create(path: String, mode: UInt32, group: String?) throws(DaemonError) -> ControlSocket {
        var gid: UInt32?
        if let group {
            guard let g = GroupDatabase.gid(of: group) else {
                throw DaemonError("socket group \"\(group)\" is not in /etc/group (give a numeric gid instead)")
            }
            gid = g
        }
        if let directoryEnd = path.lastIndex(of: "/"), directoryEnd != path.startIndex {
            let directory = String(path[..<directoryEnd])
            if !SystemCalls.fileExists(directory) {
                do { try SystemCalls.makeDirectory(directory, mode: 0o755) } catch {
                    throw DaemonError("cannot create the socket directory: \(error)")
                }
            }
        }
        if SystemCalls.isSocketFile(path) == true {
            // Another daemon answering means we must not take its place; a refused
            // connection means a stale file from a crash, which we replace.
            if let probe = try? SystemCalls.unixConnect(path) {
                probe.close()
                throw DaemonError("another skeletond is already listening on \(path)")
            }
            do { try SystemCalls.unlink(path) } catch { throw DaemonError("cannot remove the stale socket: \(error)") }
        } else if SystemCalls.fileExists(path) {
            throw DaemonError("\(path) exists and is not a socket; not replacing it")
        }
        let fd: FileDescriptor
        do { fd = try SystemCalls.unixListen(path, backlog: 128) } catch {
            throw DaemonError("cannot listen on \(path): \(error)")
        }
        do {
            try SystemCalls.chmod(path, mode)
            if let gid { try SystemCalls.chown(path, group: gid) }
        } catch {
            fd.close()
            try? SystemCalls.unlink(path)
            throw DaemonError("cannot set the socket's mode or group: \(error)")
        }
        return ControlSocket(fd: fd, path: path, ownsFile: true, allowedGroup: gid)
    }

    /// Root, our own user, the socket's group (primary or supplementary) may talk to us.
    func admits(uid: UInt32, gid: UInt32) -> Bool {
        if uid == 0 || uid == SystemCalls.effectiveUserID { return true }
        guard let allowed = allowedGroup else { return false }
        return gid == allowed || GroupDatabase.isMember(uid: uid, of: allowed)
    }

    var listening: FileDescriptor { fd }

    /// accept(2), non-blocking, with the peer's SO_PEERCRED.
    func accept() throws(Errno) -> (FileDescriptor, peer: (uid: UInt32, gid: UInt32, pid: Int32)?)? {
        guard let connection = try SystemCalls.accept(fd) else { return nil }
        return (connection, try? SystemCalls.peerCredentials(connection))
    }

    func read(_ connection: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        try connection.read(into: buffer)
    }

    func send(_ connection: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int? { try connection.send(bytes) }

    func close(_ connection: FileDescriptor) { connection.close() }

    func close() {
        fd.close()
        if ownsFile { try? SystemCalls.unlink(path) }
    }
}
