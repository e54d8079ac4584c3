/// A file as the kernel knows it (st_dev, st_ino): two paths, or a path and an open descriptor,
/// are the same file when these are equal, whatever was renamed or replaced meanwhile.
public struct FileIdentity: Sendable, Equatable {
    public var device: UInt64
    public var inode: UInt64
}
