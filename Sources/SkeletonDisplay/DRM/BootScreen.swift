import CLibDRM
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// One output as a previous start recorded it (connector, CRTC, mode), brought up by
/// `BootDisplay` with its cached first frame; `DRMOutput` adopts its buffer later.
///
/// The outputs of a boot display are a linked list, not an array: an array of a class would
/// make the Swift runtime instantiate generic metadata, which is most of what a start costs on
/// a slow boot CPU, and nothing of that kind runs before the first frame.
public final class BootScreen {
    public static let modeByteCount = MemoryLayout<drmModeModeInfo>.size

    let connectorID: UInt32
    let crtcID: UInt32
    let mode: drmModeModeInfo
    /// The mode was the connector's preferred one, so it must still be (another monitor).
    let modeIsPreferred: Bool
    /// Writes the cached frame into the buffer on screen; false when it could not. Dropped once
    /// shown (it holds the frame file open).
    private var writeFrame: ((Canvas) -> Bool)?
    public let next: BootScreen?

    var buffer: DumbBuffer?
    var saved: drmModeCrtcPtr?
    var adopted = false

    init(connectorID: UInt32, crtcID: UInt32, mode: drmModeModeInfo, modeIsPreferred: Bool, next: BootScreen?,
         writeFrame: @escaping (Canvas) -> Bool) {
        self.connectorID = connectorID
        self.crtcID = crtcID
        self.mode = mode
        self.modeIsPreferred = modeIsPreferred
        self.next = next
        self.writeFrame = writeFrame
    }

    /// nil when `modeBytes` is not a mode (of this libdrm's layout).
    public convenience init?(connectorID: UInt32, crtcID: UInt32, modeBytes: UnsafeRawBufferPointer, modeIsPreferred: Bool,
                             next: BootScreen?, writeFrame: @escaping (Canvas) -> Bool) {
        guard modeBytes.count == Self.modeByteCount, let base = modeBytes.baseAddress else { return nil }
        self.init(connectorID: connectorID, crtcID: crtcID, mode: base.loadUnaligned(as: drmModeModeInfo.self),
                  modeIsPreferred: modeIsPreferred, next: next, writeFrame: writeFrame)
    }

    public var size: Size { Size(width: Int(mode.hdisplay), height: Int(mode.vdisplay)) }

    /// This screen or one after it is on `crtc`.
    func uses(_ crtc: UInt32) -> Bool {
        var screen: BootScreen? = self
        while let s = screen {
            if s.crtcID == crtc { return true }
            screen = s.next
        }
        return false
    }

    /// The connector is still connected and offers the mode (still as its preferred one when
    /// it was chosen for that). Its state as the kernel last probed it: a probe (EDID read)
    /// would cost tens of milliseconds per output, and `DRMDisplay.open` probes anyway and
    /// adopts only an output it would drive on this connector, CRTC and mode.
    func isCurrent(_ fd: FileDescriptor) -> Bool {
        guard let connector = DRMCalls.connector(fd, connectorID, probing: false) else { return false }
        defer { DRMCalls.free(connector) }
        let c = connector.pointee
        guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0, let modes = c.modes else { return false }
        var preferred: Int?
        var offered = false
        for i in 0..<Int(c.count_modes) {
            if preferred == nil && modes[i].type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 { preferred = i }
            if DRMCalls.sameMode(modes[i], mode) { offered = true }
        }
        return modeIsPreferred ? DRMCalls.sameMode(modes[preferred ?? 0], mode) : offered
    }

    /// Creates the buffer, sets the mode on it, then writes the frame (bochs wipes a buffer
    /// drawn before the mode set). False when the mode could not be set; a frame that could
    /// not be read whole leaves the screen as it is until the daemon draws.
    func show(_ fd: FileDescriptor, device: String) -> Bool {
        guard let buffer = try? DumbBuffer(fd: fd, width: Int(mode.hdisplay), height: Int(mode.vdisplay),
                                           device: device, connector: "boot") else { return false }
        self.buffer = buffer
        saved = DRMCalls.crtc(fd, crtcID)
        guard DRMCalls.setCrtc(fd, crtc: crtcID, framebuffer: buffer.framebuffer, connector: connectorID, mode: mode) == nil else {
            release(fd)
            return false
        }
        _ = writeFrame?(buffer.canvas)
        writeFrame = nil
        _ = DRMCalls.dirty(fd, framebuffer: buffer.framebuffer)
        return true
    }

    /// Puts the saved CRTC back (the console) and destroys the buffer, unless adopted.
    func release(_ fd: FileDescriptor) {
        writeFrame = nil
        guard !adopted else { return }
        if let buffer {
            DRMCalls.restoreCrtc(fd, saved: saved, crtc: crtcID, connector: connectorID)
            buffer.destroy()
            self.buffer = nil
        }
        if let saved { DRMCalls.free(saved) }
        saved = nil
    }

    /// Hands the buffer and the saved CRTC to an output driving the same connector, CRTC and mode.
    func adopt(connectorID: UInt32, crtcID: UInt32, mode: drmModeModeInfo) -> (buffer: DumbBuffer, saved: drmModeCrtcPtr?)? {
        guard !adopted, let buffer, connectorID == self.connectorID, crtcID == self.crtcID, DRMCalls.sameMode(mode, self.mode) else {
            return nil
        }
        adopted = true
        let savedCrtc = saved
        // The output owns both now (and frees the saved CRTC).
        self.buffer = nil
        saved = nil
        return (buffer, savedCrtc)
    }
}
