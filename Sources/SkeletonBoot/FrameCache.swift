import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The first frame of the start layout, kept on disk per output size, so that a boot shows the
/// skeleton before the layout engine has run (psplash compiles its picture in; Plymouth loads
/// prepared images). The daemon writes an entry after a start that missed it, and
/// `skeletond cache` prepares entries ahead, for an initramfs or a read-only image.
///
/// An entry is named by a hash of everything the picture depends on: this executable's build
/// id (so a new renderer never shows an old picture), the layout's name and bytes, and the
/// output size. The file is a 16-byte header (`SKFRAME1`, width and height as little-endian
/// UInt32) and then the XRGB8888 pixels, row by row.
public struct FrameCache: Sendable {
    public let directory: String
    private let executableID: [UInt8]

    /// Left in the directory by a daemon from the initramfs that wrote what that initramfs lacked,
    /// and by `skeletond cache --check-unchanged` when its inputs changed during the run
    /// (`skeletond-initramfs.path` prepares the next boot and makes the initramfs again);
    /// hidden, so the hooks' `*` leaves it out.
    public static let initramfsOutdatedMark = ".initramfs-outdated"

    /// Leaves `initramfsOutdatedMark` in `directory`, saying `why`; returns its path. Synced:
    /// after a power cut the next boot must still find it, or it starts from the old initramfs.
    @discardableResult
    public static func markInitramfsOutdated(in directory: String, why: String) throws(Errno) -> String {
        let path = directory + "/" + initramfsOutdatedMark
        let written = Array((why + "\n").utf8).withUnsafeBytes { raw in
            Result { () throws(Errno) in try SystemCalls.writeFileAtomically(path, [raw]) }
        }
        try written.get()
        return path
    }

    static let magic: StaticString = "SKFRAME1"
    static let headerSize = 16

    /// nil when caching is off (no directory) or this executable has no build id to key on.
    public init?(directory: String?) {
        guard let directory, let id = SystemCalls.buildID() else { return nil }
        self.directory = directory
        self.executableID = id
    }

    /// The entry for a layout (its name and file bytes) at an output size.
    public func path(layoutName: String, layoutText: [UInt8], size: Size) -> String {
        var hash = FNV1a()
        hash.add(Array("skeletond frame cache 1".utf8))
        hash.add(executableID)
        hash.add(Array(layoutName.utf8))
        hash.add(layoutText)
        hash.add(UInt32(size.width))
        hash.add(UInt32(size.height))
        return "\(directory)/\(hash.hex)-\(size.width)x\(size.height).frame"
    }

    /// The entry at `path` when it is there, whole, and of `size`: checked before anything is
    /// put on screen, so that a miss never sets a mode.
    public func entry(_ path: String, size: Size) -> Entry? {
        guard let entry = Self.openEntry(path), entry.size == size else { return nil }
        return entry
    }

    /// The entry at `path` when its header is ours and the file holds all its pixels; its size
    /// is the header's. Plain reads into the stack: this runs on the boot record's path.
    public static func openEntry(_ path: String) -> Entry? {
        guard let fd = SystemCalls.openForReading(path) else { return nil }
        var header = (UInt64(0), UInt32(0), UInt32(0))
        let read = withUnsafeMutableBytes(of: &header) { (try? fd.readFully(into: $0)) == true }
        let width = Int(UInt32(littleEndian: header.1)), height = Int(UInt32(littleEndian: header.2))
        let magicMatches = header.0 == UnsafeRawPointer(magic.utf8Start).loadUnaligned(as: UInt64.self)
        // At most DRM's largest framebuffer: a damaged header must not overflow the size below.
        guard read, magicMatches, (1...16384).contains(width), (1...16384).contains(height),
              let fileSize = try? fd.fileSize(), fileSize == headerSize + width * height * 4 else {
            fd.close()
            return nil
        }
        return Entry(fd: fd, size: Size(width: width, height: height))
    }

    /// Reads an entry into `canvas`; false when it is missing, of another size, or damaged
    /// (the canvas may then hold part of it: the caller draws the frame instead).
    public func load(_ path: String, into canvas: Canvas) -> Bool {
        entry(path, size: Size(width: canvas.width, height: canvas.height))?.read(into: canvas) ?? false
    }

    /// Writes `canvas` as the entry at `path` (atomically: a reader sees no half-written entry)
    /// and removes the other entries of that size, left by older layouts or executables, so
    /// the cache holds one frame per output size and never grows past that.
    public func store(_ path: String, from canvas: Canvas) throws(Errno) {
        try write(path, from: canvas)
        let directory = Self.directory(of: path)
        let suffix = "-\(canvas.width)x\(canvas.height).frame"
        for name in SystemCalls.directoryEntries(directory) where name.hasSuffix(suffix) && directory + "/" + name != path {
            try? SystemCalls.unlink(directory + "/" + name)
        }
    }

    /// The directory part of an entry's path.
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    private func write(_ path: String, from canvas: Canvas) throws(Errno) {
        let header = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.headerSize, alignment: 8)
        defer { header.deallocate() }
        header.copyBytes(from: Self.header(width: canvas.width, height: canvas.height))
        var parts = [UnsafeRawBufferPointer(header)]
        if canvas.stride == canvas.width {
            parts.append(UnsafeRawBufferPointer(start: canvas.base, count: canvas.width * canvas.height * 4))
        } else {
            for y in 0..<canvas.height { parts.append(UnsafeRawBufferPointer(start: canvas.row(y), count: canvas.width * 4)) }
        }
        try SystemCalls.writeFileAtomically(path, parts)
    }

    /// Renders `layout`'s first frame (animation time 0) at `size`, its pictures and texts made
    /// by `sprites`, and stores it at `path`.
    public func storeFirstFrame(of layout: Layout, overrides: PresentationOverrides = PresentationOverrides(),
                                size: Size, sprites: SpriteSource?, at path: String) throws(Errno) {
        let frame = PixelBuffer(size: size)
        FrameRenderer(layout: layout, outputSize: size, overrides: overrides, sprites: sprites).renderFull(at: 0, into: frame.canvas)
        try store(path, from: frame.canvas)
    }

    package static func header(width: Int, height: Int) -> [UInt8] {
        var bytes = Array(UnsafeBufferPointer(start: magic.utf8Start, count: magic.utf8CodeUnitCount))
        for value in [UInt32(width), UInt32(height)] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        return bytes
    }
}
