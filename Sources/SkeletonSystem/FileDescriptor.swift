/// An open file descriptor: a typed wrapper, so that a descriptor is never mistaken for a
/// count, a signal or a pid. It owns nothing: whoever opened it closes it (`close()`).
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public var description: String { "fd \(rawValue)" }

    /// close(2). EINTR is not retried: on Linux the descriptor is gone either way.
    public func close() { SystemCalls.close(self) }

    /// read(2) of what is there; nil when a non-blocking descriptor has nothing yet, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int? {
        try SystemCalls.read(self, into: buffer)
    }

    /// read(2) until `buffer` is full; false when the file ends first.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Bool {
        try SystemCalls.readFully(self, into: buffer)
    }

    /// send(2) without SIGPIPE; nil when a non-blocking socket takes nothing now.
    public func send(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int? { try SystemCalls.send(self, buffer) }

    /// write(2) until everything is written or the descriptor fails.
    public func writeAll(_ bytes: [UInt8]) { SystemCalls.writeAll(self, bytes) }

    /// The size of the open file (fstat(2)).
    public func fileSize() throws(Errno) -> Int { try SystemCalls.fileSize(self) }

    /// fcntl(2) F_SETFL O_NONBLOCK.
    public func setNonBlocking() { SystemCalls.setNonBlocking(self) }

    /// fcntl(2) F_SETFD FD_CLOEXEC.
    public func setCloseOnExec() { SystemCalls.setCloseOnExec(self) }
}
