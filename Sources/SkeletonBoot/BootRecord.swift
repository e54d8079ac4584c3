import SkeletonSystem
import SkeletonLayout

/// What a start needs to put the start layout's first frame on screen before it reads its
/// settings, opens its socket or parses a layout: the frame cache entry per output size, the
/// choices the settings make (device, connectors, modes) and, once a start has confirmed them,
/// the outputs it drove (connector, CRTC, mode). On a slow boot CPU, and under emulation, a
/// start costs what it runs for the first time: the boot path reads this in place
/// (`BootRecordView`) and runs none of the Swift runtime's generic metadata machinery.
///
/// A record with no outputs is a *plan*: written by `skeletond cache` for an image's first boot,
/// where no start has run yet; the boot path chooses the outputs as `DRMDisplay.open` will
/// (`BootDisplay.probe`), and that start writes the confirmed record over it. A record whose
/// outputs no longer match (another monitor) is shown as its plan.
///
/// A record is named by a hash of this executable's build id, the `run` arguments and the
/// settings file's bytes (`BootRecord.Location`), so it never speaks for other settings. What
/// it refers to is checked at boot: the hidden mark, the start layout's bytes (by hash), each
/// connector's state and modes, each frame entry's header and size. Any mismatch and the start
/// goes the usual way.
///
/// File `SKBOOT03`: the hidden mark's path; the start layout's path ("" for the built-in one)
/// and the FNV-1a hash of its bytes (UInt64); the device's path ("": the first card with an
/// output to drive); whether only named connectors are driven (UInt32) and their names (a
/// string of strings); the modes asked for (a string of: connector name, width, height); the
/// frames (a string of: width, height, entry path); then what a boot confirmed ("" and 0 in a
/// plan): the device the outputs are on, the number of outputs (UInt32) and per output its
/// connector id, CRTC id, whether its mode is the connector's preferred one (UInt32
/// each), the mode (libdrm's drmModeModeInfo, as a string of bytes) and its frame entry's path;
/// then the framebuffer device a start drew on ("" for none): its path, its driver's id, its
/// width and height (UInt32 each) and its frame entry's path.
/// Numbers are little-endian; a string is a UInt32 length and its bytes.
///
/// A record with a framebuffer is shown there when its DRM outputs cannot be (under UEFI the
/// firmware's framebuffer is up before the native driver); a record of a framebuffer alone
/// (`--backend fbdev`, a board with fbdev only) never looks for DRM outputs.
public struct BootRecord: Equatable, Sendable {
    /// A frame cache entry for outputs of one size.
    public struct Frame: Equatable, Sendable {
        public var size: Size
        public var path: String

        public init(size: Size, path: String) {
            self.size = size
            self.path = path
        }
    }

    /// What a start drove: its device and outputs.
    public struct Confirmed: Equatable, Sendable {
        public var devicePath: String
        public var outputs: [Output]

        public init(devicePath: String, outputs: [Output]) {
            self.devicePath = devicePath
            self.outputs = outputs
        }
    }

    /// An output as a start drove it.
    public struct Output: Equatable, Sendable {
        public var connectorID: UInt32
        public var crtcID: UInt32
        public var modeIsPreferred: Bool
        public var modeBytes: [UInt8]
        public var framePath: String

        public init(connectorID: UInt32, crtcID: UInt32, modeIsPreferred: Bool, modeBytes: [UInt8], framePath: String) {
            self.connectorID = connectorID
            self.crtcID = crtcID
            self.modeIsPreferred = modeIsPreferred
            self.modeBytes = modeBytes
            self.framePath = framePath
        }
    }

    /// The firmware's framebuffer (or a board's fbdev) as a start drew on it, upright.
    public struct Framebuffer: Equatable, Sendable {
        public var path: String
        /// The driver's name for the device (`fb_fix_screeninfo.id`: "EFI VGA", "VESA VGA").
        public var id: String
        public var size: Size
        public var framePath: String

        public init(path: String, id: String, size: Size, framePath: String) {
            self.path = path
            self.id = id
            self.size = size
            self.framePath = framePath
        }
    }

    public var hiddenMarkPath: String
    /// nil for the built-in layout (the build id covers it).
    public var layoutPath: String?
    public var layoutHash: UInt64
    /// nil: the first card with an output to drive.
    public var devicePath: String?
    /// Connector names to drive; nil: every connected one.
    public var connectors: [String]?
    public var modes: [String: Size]
    public var frames: [Frame]
    /// nil in a plan.
    public var confirmed: Confirmed?
    public var framebuffer: Framebuffer?

    public init(hiddenMarkPath: String, layoutPath: String?, layoutHash: UInt64, devicePath: String?, connectors: [String]?,
                modes: [String: Size], frames: [Frame], confirmed: Confirmed? = nil, framebuffer: Framebuffer? = nil) {
        self.hiddenMarkPath = hiddenMarkPath
        self.layoutPath = layoutPath
        self.layoutHash = layoutHash
        self.devicePath = devicePath
        self.connectors = connectors
        self.modes = modes
        self.frames = frames
        self.confirmed = confirmed
        self.framebuffer = framebuffer
    }

    static let magic: StaticString = "SKBOOT03"
    package static let maximumFileSize = 65536
    public static let fileSuffix = ".boot"

    /// The hash a record keeps of its layout file's bytes.
    public static func layoutHash(_ text: [UInt8]) -> UInt64 { text.withUnsafeBytes { FNV1a.hash($0) } }

    /// The file's bytes.
    public var encoded: [UInt8] {
        var writer = BootRecordWriter(magic: Self.magic)
        writer.string(hiddenMarkPath)
        writer.string(layoutPath ?? "")
        writer.uint64(layoutHash)
        writer.string(devicePath ?? "")
        writer.uint32(connectors == nil ? 0 : 1)
        var names = BootRecordWriter()
        for name in connectors ?? [] { names.string(name) }
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
        writer.string(confirmed?.devicePath ?? "")
        writer.uint32(UInt32(confirmed?.outputs.count ?? 0))
        for output in confirmed?.outputs ?? [] {
            writer.uint32(output.connectorID)
            writer.uint32(output.crtcID)
            writer.uint32(output.modeIsPreferred ? 1 : 0)
            writer.bytes(output.modeBytes)
            writer.string(output.framePath)
        }
        writer.string(framebuffer?.path ?? "")
        writer.string(framebuffer?.id ?? "")
        writer.uint32(UInt32(framebuffer?.size.width ?? 0))
        writer.uint32(UInt32(framebuffer?.size.height ?? 0))
        writer.string(framebuffer?.framePath ?? "")
        return writer.bytes
    }

    /// Writes the record atomically at `location` and removes the directory's other records
    /// (the settings or arguments they were named for are gone).
    public func write(to location: Location) throws(Errno) {
        let bytes = encoded
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try SystemCalls.writeFileAtomically(location.path, [raw]) }
        }
        try written.get()
        let own = String(location.path.split(separator: "/").last ?? "")
        for name in SystemCalls.directoryEntries(location.directory) where name.hasSuffix(Self.fileSuffix) && name != own {
            try? SystemCalls.unlink(location.directory + "/" + name)
        }
    }
}
