#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonLayout
import SkeletonSystem

/// A boot record for a first boot, written by an image builder's `skeletond cache` where no
/// start has run yet: it cannot name the device, connectors, CRTCs or modes, so it names the
/// choices the settings make (device, outputs, modes) and a frame per output size, and the
/// boot path chooses the outputs as `DRMDisplay.open` will (`BootDisplay.probe`). It lives
/// where the record will, under the same name (the key of the `run` arguments the image starts
/// the daemon with and of the settings file's bytes); the first start writes the record over it.
///
/// File: `SKPLAN01`, then as a record the hidden marker's path, the start layout's path ("" for
/// the built-in one) and the FNV-1a hash of its bytes; the device's path ("": the first card
/// with an output to drive); whether only named connectors are driven (UInt32), then their names
/// (one string of strings); the modes asked for (one string of: connector name, width, height);
/// the frames (one string of: width, height, the entry's path). Encoded as a record is.
public struct BootPlan: Equatable, Sendable {
    public struct Frame: Equatable, Sendable {
        public var size: Size
        public var path: String

        public init(size: Size, path: String) {
            self.size = size
            self.path = path
        }
    }

    public var hiddenMarkerPath: String
    /// nil for the built-in layout.
    public var layoutPath: String?
    public var layoutHash: UInt64
    /// nil: the first card with an output to drive.
    public var devicePath: String?
    /// Connector names to drive; nil: every connected one.
    public var outputs: [String]?
    public var modes: [String: Size]
    public var frames: [Frame]

    public init(hiddenMarkerPath: String, layoutPath: String?, layoutHash: UInt64, devicePath: String?, outputs: [String]?,
                modes: [String: Size], frames: [Frame]) {
        self.hiddenMarkerPath = hiddenMarkerPath
        self.layoutPath = layoutPath
        self.layoutHash = layoutHash
        self.devicePath = devicePath
        self.outputs = outputs
        self.modes = modes
        self.frames = frames
    }

    static let magic: StaticString = "SKPLAN01"

    static func isPlan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var reader = BootRecordReader(bytes)
        return reader.magic(magic)
    }

    /// The file's bytes.
    public var encoded: [UInt8] {
        var writer = BootRecordWriter(magic: Self.magic)
        BootRecord.writeStart(&writer, hiddenMarkerPath: hiddenMarkerPath, layoutPath: layoutPath, layoutHash: layoutHash)
        writer.string(devicePath ?? "")
        writer.uint32(outputs == nil ? 0 : 1)
        var names = BootRecordWriter()
        for name in outputs ?? [] { names.string(name) }
        writer.bytes(names.bytes)
        var sizes = BootRecordWriter()
        for (name, size) in modes.sorted(by: { $0.key < $1.key }) {
            sizes.string(name)
            sizes.uint32(UInt32(size.width))
            sizes.uint32(UInt32(size.height))
        }
        writer.bytes(sizes.bytes)
        var entries = BootRecordWriter()
        for frame in frames {
            entries.uint32(UInt32(frame.size.width))
            entries.uint32(UInt32(frame.size.height))
            entries.string(frame.path)
        }
        writer.bytes(entries.bytes)
        return writer.bytes
    }

    /// Writes the plan atomically and removes the directory's records and other plans.
    public func write(to location: BootRecord.Location) throws(Errno) { try location.write(encoded) }

    /// Shows the plan's frames on the outputs chosen now, when the skeleton is not hidden, the
    /// layout file is as it was and every output has a frame of its size; nil otherwise, with
    /// the screen untouched.
    static func show(_ bytes: UnsafeRawBufferPointer) -> BootDisplay? {
        guard let plan = View(bytes) else { return nil }
        return BootDisplay.probe(device: plan.device, accepts: plan.accepts, wantedSize: plan.wantedSize, frame: { size in
            guard let path = plan.framePath(for: size), let entry = FrameCache.openEntry(path), entry.size == size else { return nil }
            return { entry.read(into: $0) }
        })
    }

    /// A plan's fields, read in place from its bytes (valid as long as they are), as the boot
    /// path must: no arrays, no dictionaries.
    package struct View {
        /// Raw like the rest, so that a View (and an optional one) is copied as plain bytes:
        /// a String member would make the runtime instantiate `View?`'s metadata on the boot path.
        private let deviceBytes: UnsafeRawBufferPointer
        private let onlyNamed: Bool
        private let names: UnsafeRawBufferPointer
        private let modes: UnsafeRawBufferPointer
        private let frames: UnsafeRawBufferPointer

        /// nil when the bytes are not a whole plan, the skeleton is hidden or the start layout's
        /// file changed.
        package init?(_ bytes: UnsafeRawBufferPointer) {
            var reader = BootRecordReader(bytes)
            guard reader.magic(magic), BootRecord.startIsCurrent(&reader), let device = reader.bytes(),
                  let onlyNamed = reader.uint32(), let names = reader.bytes(), let modes = reader.bytes(), let frames = reader.bytes(),
                  reader.atEnd else { return nil }
            self.deviceBytes = device
            self.onlyNamed = onlyNamed != 0
            self.names = names
            self.modes = modes
            self.frames = frames
        }

        /// The device the settings name; nil: the first card with an output to drive.
        package var device: String? { deviceBytes.isEmpty ? nil : String(decoding: deviceBytes, as: UTF8.self) }

        /// Whether the daemon drives this connector (when connected and not non-desktop).
        package func accepts(_ name: String) -> Bool {
            guard onlyNamed else { return true }
            var reader = BootRecordReader(names)
            while let next = reader.string() {
                if next == name { return true }
            }
            return false
        }

        /// The size the settings ask for on this connector.
        package func wantedSize(_ name: String) -> Size? {
            var reader = BootRecordReader(modes)
            while let next = reader.string(), let width = reader.uint32(), let height = reader.uint32() {
                if next == name { return Size(width: Int(width), height: Int(height)) }
            }
            return nil
        }

        /// The frame cache entry for an output of this size.
        package func framePath(for size: Size) -> String? {
            var reader = BootRecordReader(frames)
            while let width = reader.uint32(), let height = reader.uint32(), let path = reader.string() {
                if Int(width) == size.width && Int(height) == size.height { return path }
            }
            return nil
        }
    }
}
