import SkeletonSystem

/// How control connections arrive and carry bytes: the Unix socket (`ControlSocket`), or memory
/// (`MemoryTransport`, whose descriptors exist in no kernel, for the stepped loop of tests). Each
/// call is the non-blocking form: nil for "nothing now".
public protocol ControlTransport: AnyObject {
    /// What the loop watches for connections waiting to be accepted.
    var listening: FileDescriptor { get }
    /// The next waiting connection and its peer's user and group (nil when they cannot be read);
    /// nil when none waits.
    func accept() throws(Errno) -> (FileDescriptor, peer: (uid: UInt32, gid: UInt32, pid: Int32)?)?
    /// Whether a peer of this user and group may control the daemon.
    func admits(uid: UInt32, gid: UInt32) -> Bool
    /// Bytes from a connection: 0 at its end.
    func read(_ connection: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int?
    func send(_ connection: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int?
    func close(_ connection: FileDescriptor)
    /// Stops listening (and removes the socket's file when the transport made it).
    func close()
}
