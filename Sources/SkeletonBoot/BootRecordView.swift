import SkeletonDisplay
import SkeletonLayout
import SkeletonSystem

/// A boot record's fields, read in place from its bytes (valid as long as they are), as the
/// boot path must: no arrays, no dictionaries. Raw like the rest, so that a view (and an
/// optional one) is copied as plain bytes: a String member would make the runtime instantiate
/// `BootRecordView?`'s metadata on the boot path.
package struct BootRecordView {
    /// The FNV-1a hash of the start layout's bytes when the record was written.
    package let layoutHash: UInt64
    private let deviceBytes: UnsafeRawBufferPointer
    private let onlyNamed: Bool
    private let names: UnsafeRawBufferPointer
    private let modes: UnsafeRawBufferPointer
    private let frames: UnsafeRawBufferPointer
    private let confirmedDevice: UnsafeRawBufferPointer
    private let outputCount: UInt32
    private let outputs: UnsafeRawBufferPointer
    private let framebufferPath: UnsafeRawBufferPointer
    private let framebufferID: UnsafeRawBufferPointer
    private let framebufferWidth: UInt32
    private let framebufferHeight: UInt32
    private let framebufferFrame: UnsafeRawBufferPointer

    /// At most this many outputs are recorded (DRM devices have fewer CRTCs).
    static let maximumOutputs: UInt32 = 16

    /// nil when the bytes are not a whole record, the skeleton is hidden or the start layout's
    /// file changed (`checkingStart`; else only the first).
    package init?(_ bytes: UnsafeRawBufferPointer, checkingStart: Bool = true) {
        var reader = BootRecordReader(bytes)
        guard reader.magic(BootRecord.magic), let mark = reader.bytes(), let layoutPath = reader.bytes(), let layoutHash = reader.uint64(),
              !checkingStart || Self.startIsCurrent(mark: mark, layoutPath: layoutPath, layoutHash: layoutHash), let device = reader.bytes(),
              let onlyNamed = reader.uint32(), let names = reader.bytes(), let modes = reader.bytes(), let frames = reader.bytes(),
              let confirmedDevice = reader.bytes(), let count = reader.uint32(), count <= Self.maximumOutputs else { return nil }
        let outputs = reader.rest
        // Each output's fields are all there, then the framebuffer's, and nothing follows them.
        for _ in 0..<count {
            guard reader.uint32() != nil, reader.uint32() != nil, reader.uint32() != nil, reader.bytes() != nil,
                  reader.bytes() != nil else { return nil }
        }
        guard let framebufferPath = reader.bytes(), let framebufferID = reader.bytes(), let framebufferWidth = reader.uint32(),
              let framebufferHeight = reader.uint32(), let framebufferFrame = reader.bytes(), reader.atEnd else { return nil }
        self.layoutHash = layoutHash
        self.deviceBytes = device
        self.onlyNamed = onlyNamed != 0
        self.names = names
        self.modes = modes
        self.frames = frames
        self.confirmedDevice = confirmedDevice
        self.outputCount = count
        self.outputs = outputs
        self.framebufferPath = framebufferPath
        self.framebufferID = framebufferID
        self.framebufferWidth = framebufferWidth
        self.framebufferHeight = framebufferHeight
        self.framebufferFrame = framebufferFrame
    }

    /// Whether the skeleton is not hidden in this boot and the start layout's file is as it was.
    private static func startIsCurrent(mark: UnsafeRawBufferPointer, layoutPath: UnsafeRawBufferPointer, layoutHash: UInt64) -> Bool {
        guard HiddenMark(path: String(decoding: mark, as: UTF8.self)).state != .set else { return false }
        if layoutPath.isEmpty { return true }
        var hash: UInt64?
        _ = SystemCalls.withFileBytes(String(decoding: layoutPath, as: UTF8.self), limit: 1 << 24) { hash = FNV1a.hash($0) }
        return hash == layoutHash
    }

    /// The device the settings name; nil: the first card with an output to drive.
    package var device: String? { deviceBytes.isEmpty ? nil : String(decoding: deviceBytes, as: UTF8.self) }

    /// Whether a start drives this connector (when connected and not non-desktop).
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

    /// The confirmed outputs' device and screens (a list, last first), each with its frame
    /// entry open and of its size; nil in a plan or when an entry is missing or damaged.
    package var screens: (device: String, screens: BootScreen)? {
        guard outputCount > 0, !confirmedDevice.isEmpty else { return nil }
        var reader = BootRecordReader(outputs)
        var screens: BootScreen?
        for _ in 0..<outputCount {
            guard let connector = reader.uint32(), let crtc = reader.uint32(), let preferred = reader.uint32(),
                  let mode = reader.bytes(), let framePath = reader.string(), let frame = FrameCache.openEntry(framePath),
                  let screen = BootScreen(connectorID: connector, crtcID: crtc, modeBytes: mode, modeIsPreferred: preferred != 0,
                                          next: screens, writeFrame: { frame.read(into: $0) }),
                  frame.size == screen.size else { return nil }
            screens = screen
        }
        guard let screens else { return nil }
        return (String(decoding: confirmedDevice, as: UTF8.self), screens)
    }

    /// Puts the frames on screen: on the confirmed outputs when they are all as they were,
    /// else on the outputs a start would choose now (not for a record of a framebuffer alone);
    /// nil, with the screen untouched, when neither can be done.
    package func show() -> BootDisplay? {
        if let (device, screens) = screens, let display = BootDisplay.show(path: device, screens: screens) { return display }
        guard outputCount > 0 || framebufferPath.isEmpty else { return nil }
        return BootDisplay.probe(device: device, accepts: accepts, wantedSize: wantedSize, frame: { size in
            guard let path = framePath(for: size), let entry = FrameCache.openEntry(path), entry.size == size else { return nil }
            return { entry.read(into: $0) }
        })
    }

    /// The recorded framebuffer with its frame, when it is there as it was (its driver and
    /// size) and its entry is whole; nil, with the screen untouched, otherwise.
    package func showOnFramebuffer() -> BootFramebuffer? {
        guard !framebufferPath.isEmpty, let frame = FrameCache.openEntry(String(decoding: framebufferFrame, as: UTF8.self)) else {
            return nil
        }
        let size = Size(width: Int(framebufferWidth), height: Int(framebufferHeight))
        guard frame.size == size else { return nil }
        return BootFramebuffer.show(path: String(decoding: framebufferPath, as: UTF8.self), id: String(decoding: framebufferID, as: UTF8.self),
                                    size: size, readFrame: { frame.read(into: $0) })
    }

    /// Whether a start confirmed what it drove (DRM outputs or a framebuffer): more than a plan.
    package var isConfirmed: Bool { outputCount > 0 || !framebufferPath.isEmpty }

    /// The recorded framebuffer's path and size, if there is one.
    package var framebuffer: (path: String, size: Size)? {
        guard !framebufferPath.isEmpty else { return nil }
        return (String(decoding: framebufferPath, as: UTF8.self), Size(width: Int(framebufferWidth), height: Int(framebufferHeight)))
    }
}
