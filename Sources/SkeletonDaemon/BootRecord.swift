#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonSystem

/// How the last start put its first frame on screen (the device; each output's connector,
/// CRTC, mode and frame cache entry), so that the next start shows that frame before it reads
/// its settings, opens its socket or parses a layout. On a slow boot CPU, and under emulation,
/// a start costs what it runs for the first time: this path runs little, and none of the
/// Swift runtime's generic metadata machinery (no arrays of our types, no dictionaries).
///
/// A record is named by a hash of this executable's build id, the `run` arguments and the
/// settings file's bytes, so it never speaks for other settings. What it refers to is checked
/// at boot: the hidden marker, the start layout's bytes (by hash), each connector's state and
/// modes, each frame entry's header and size. Any mismatch and the start goes the usual way.
///
/// File: `SKBOOT01`, then the hidden marker's path, the start layout's path ("" for the
/// built-in one), the FNV-1a hash of its bytes (UInt64), the device's path, the number of
/// outputs (UInt32), and per output its connector id, CRTC id, whether its mode is the
/// connector's preferred one (UInt32 each), the mode (libdrm's drmModeModeInfo, as a string of
/// bytes) and its frame entry's path. Numbers are little-endian; a string is a UInt32 length
/// and its bytes.
public struct BootRecord: Equatable, Sendable {
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

    public var hiddenMarkerPath: String
    /// nil for the built-in layout (the build id covers it).
    public var layoutPath: String?
    public var layoutHash: UInt64
    public var devicePath: String
    public var outputs: [Output]

    public init(hiddenMarkerPath: String, layoutPath: String?, layoutHash: UInt64, devicePath: String, outputs: [Output]) {
        self.hiddenMarkerPath = hiddenMarkerPath
        self.layoutPath = layoutPath
        self.layoutHash = layoutHash
        self.devicePath = devicePath
        self.outputs = outputs
    }

    static let magic: StaticString = "SKBOOT01"
    static let maximumFileSize = 65536
    public static let fileSuffix = ".boot"

    /// Where a start's record is: in `directory`, named by the key.
    public struct Location: Equatable, Sendable {
        public let directory: String
        public let path: String
    }

    /// The record's location for these arguments (argv without the program name) and settings
    /// file; nil for anything but `run`, for a cache directory that is not absolute (`none`
    /// among them), for a settings file that is there but cannot be read whole, and for an
    /// executable without a build id. Reads C strings: this runs before anything else.
    public static func location(arguments argv: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>) -> Location? {
        location(arguments: argv) { settingsPath, hash in
            guard SystemCalls.fileExists(settingsPath) else {
                hash.add(string: "no settings file")
                return true
            }
            // A settings file that cannot be read whole is no key: the usual start reports it.
            return SystemCalls.withFileBytes(settingsPath, limit: maximumFileSize, { hash.add($0) }) != nil
        }
    }

    /// The location a start with `arguments` (from `run` on) looks in, when the settings file
    /// it reads holds `settings` (nil: it has none): where `skeletond cache` puts a boot plan
    /// for an image's first boot.
    public static func location(runArguments arguments: [String], settings: [UInt8]?) -> Location? {
        var argv = arguments.map { strdup($0) }
        defer { for arg in argv { free(arg) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            location(arguments: UnsafeBufferPointer(buffer)) { _, hash in
                if let settings { hash.add(settings) } else { hash.add(string: "no settings file") }
                return true
            }
        }
    }

    /// `addSettings` adds the bytes of the settings file at the path it gets (false: no key).
    private static func location(arguments argv: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>,
                                 addSettings: (String, inout FNV1a) -> Bool) -> Location? {
        guard argv.count >= 1, let command = argv[0], strcmp(command, "run") == 0 else { return nil }
        var config: UnsafeMutablePointer<CChar>?
        var cache: UnsafeMutablePointer<CChar>?
        var i = 1
        while i < argv.count, let arg = argv[i] {
            if let value = flagValue(arg, "--config", next: i + 1 < argv.count ? argv[i + 1] : nil) { config = value }
            if let value = flagValue(arg, "--frame-cache", next: i + 1 < argv.count ? argv[i + 1] : nil) { cache = value }
            i += 1
        }
        let directory = cache.map { String(cString: $0) } ?? Settings.defaultFrameCacheDirectory
        guard directory.hasPrefix("/") else { return nil }
        var hash = FNV1a()
        hash.add(string: "skeletond boot record 1")
        guard SystemCalls.withBuildID({ hash.add($0) }) != nil else { return nil }
        for arg in argv { if let arg { hash.add(UnsafeRawBufferPointer(start: arg, count: strlen(arg))) } }
        guard addSettings(config.map { String(cString: $0) } ?? Settings.defaultPath, &hash) else { return nil }
        return Location(directory: directory, path: "\(directory)/\(hash.hex)\(fileSuffix)")
    }

    /// `--name value` or `--name=value`.
    private static func flagValue(_ arg: UnsafeMutablePointer<CChar>, _ name: StaticString, next: UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
        let n = name.utf8CodeUnitCount
        let matches = name.utf8Start.withMemoryRebound(to: CChar.self, capacity: n) { strncmp(arg, $0, n) == 0 }
        guard matches else { return nil }
        if arg[n] == 0 { return next }
        return arg[n] == CChar(UInt8(ascii: "=")) ? arg + n + 1 : nil
    }

    /// Shows the frame the record (or the boot plan) at `location` describes when everything it
    /// names is as it was; nil otherwise, with the screen untouched (every check comes before a
    /// mode is set).
    public static func show(_ location: Location) -> BootDisplay? {
        SystemCalls.withFileBytes(location.path, limit: maximumFileSize) { bytes -> BootDisplay? in
            if BootPlan.isPlan(bytes) { return BootPlan.show(bytes) }
            guard let (device, screens) = screens(bytes) else { return nil }
            return BootDisplay.show(path: device, screens: screens)
        } ?? nil
    }

    /// The record's device and outputs (a list, last first) when everything it names checks out.
    public static func screens(_ bytes: UnsafeRawBufferPointer) -> (device: String, screens: BootScreen)? {
        var reader = BootRecordReader(bytes)
        guard reader.magic(magic), startIsCurrent(&reader), let device = reader.string(), let count = reader.uint32(),
              count > 0 && count <= 16 else { return nil }
        var screens: BootScreen?
        for _ in 0..<count {
            guard let connector = reader.uint32(), let crtc = reader.uint32(), let preferred = reader.uint32(),
                  let mode = reader.bytes(), let framePath = reader.string(), let frame = FrameCache.openEntry(framePath),
                  let screen = BootScreen(connectorID: connector, crtcID: crtc, modeBytes: mode, modeIsPreferred: preferred != 0,
                                          next: screens, writeFrame: { frame.read(into: $0) }),
                  frame.size == screen.size else { return nil }
            screens = screen
        }
        guard reader.atEnd, let screens else { return nil }
        return (device, screens)
    }

    /// Reads the fields a record and a plan begin with (the hidden marker's path, the start
    /// layout's path and hash): whether the skeleton is not hidden and the layout file is as
    /// it was.
    static func startIsCurrent(_ reader: inout BootRecordReader) -> Bool {
        guard let marker = reader.string(), HiddenMark(path: marker).state != .set,
              let layoutPath = reader.string(), let layoutHash = reader.uint64() else { return false }
        return layoutPath.isEmpty || SystemCalls.withFileBytes(layoutPath, limit: 1 << 24, { FNV1a.hash($0) }) == layoutHash
    }

    /// Writes those fields.
    static func writeStart(_ writer: inout BootRecordWriter, hiddenMarkerPath: String, layoutPath: String?, layoutHash: UInt64) {
        writer.string(hiddenMarkerPath)
        writer.string(layoutPath ?? "")
        writer.uint64(layoutHash)
    }

    /// The hash a record keeps of its layout file's bytes.
    public static func layoutHash(_ text: [UInt8]) -> UInt64 { text.withUnsafeBytes { FNV1a.hash($0) } }

    /// The file's bytes.
    public var encoded: [UInt8] {
        var writer = BootRecordWriter(magic: Self.magic)
        Self.writeStart(&writer, hiddenMarkerPath: hiddenMarkerPath, layoutPath: layoutPath, layoutHash: layoutHash)
        writer.string(devicePath)
        writer.uint32(UInt32(outputs.count))
        for o in outputs {
            writer.uint32(o.connectorID)
            writer.uint32(o.crtcID)
            writer.uint32(o.modeIsPreferred ? 1 : 0)
            writer.bytes(o.modeBytes)
            writer.string(o.framePath)
        }
        return writer.bytes
    }

    /// Writes the record atomically and removes the directory's other records (the settings
    /// or arguments they were named for are gone).
    public func write(to location: Location) throws(Errno) { try location.write(encoded) }
}

extension BootRecord.Location {
    /// Writes a record's or a plan's bytes here atomically and removes the directory's other
    /// records and plans.
    func write(_ bytes: [UInt8]) throws(Errno) {
        let written = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try SystemCalls.writeFileAtomically(path, [raw]) }
        }
        try written.get()
        let own = String(path.split(separator: "/").last ?? "")
        for name in SystemCalls.directoryEntries(directory) where name.hasSuffix(BootRecord.fileSuffix) && name != own {
            try? SystemCalls.unlink(directory + "/" + name)
        }
    }
}
