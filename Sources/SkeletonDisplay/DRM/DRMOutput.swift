#if canImport(Glibc)
import Glibc
#endif
import CLibDRM
import SkeletonProtocol
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// One connector on its own CRTC: two dumb buffers flipped in turn (the second made at the
/// first flip), a RAM shadow canvas the frames are drawn in, and only the damaged rectangles
/// copied into the back buffer (turned by `rotation` on the way, for a panel on its side). A
/// frame that changes only a small part of the screen is written into the buffer on screen.
public final class DRMOutput: DisplayOutput {
    public let name: String
    /// The picture's size: the mode's, turned by `rotation`.
    public let size: Size
    /// The mode's size: the buffers'.
    let physicalSize: Size
    public let rotation: Rotation
    let device: String
    let fd: FileDescriptor
    let connectorID: UInt32
    let crtcID: UInt32
    let mode: drmModeModeInfo
    /// The mode is the connector's preferred one (none was asked for, or the one asked for is it).
    let modeIsPreferred: Bool
    /// Taken over from a `BootDisplay`, whose cached first frame is on screen.
    public let adoptedBootFrame: Bool
    /// The boot display's frame is still what the screen shows (nothing presented since).
    private var showsBootFrame = false
    private let shadowBuffer: PixelBuffer
    private var buffers: [DumbBuffer] = []
    /// Which buffer is on screen and what the other one needs to catch up.
    private var pair = BufferPair()
    private var front: Int { pair.front }
    private var saved: drmModeCrtcPtr?
    private(set) var modeSet = false
    /// Handed back (hide): no frames until the display is taken again.
    private(set) var released = false
    private(set) var flipPending = false
    /// No second buffer could be made (and why): frames are drawn into the one on screen.
    private var singleBuffered = false
    private var fallbackReason: String?
    public private(set) var framesPresented = 0
    /// Called once a flip is queued: the display reads the completions that are in.
    var flipQueued: () -> Void = {}
    /// Where the faults the output works around are said, each once.
    var log: (String) -> Void = { _ in }
    /// The kernel refused this mode: the display drives the connector at another one.
    private(set) var modeRefused = false
    private var saidBusyFlip = false
    /// nil until probed; false once DIRTYFB answered "not implemented".
    private var dirtySupported: Bool?
    private var inPlace = InPlaceWrites()
    var problem: String?
    /// Another program holds DRM master (it set its own mode without `deactivate`).
    private(set) var masterLost = false

    /// `adopting`: the buffer a `BootDisplay` set this mode on, holding the cached first frame,
    /// and the CRTC as it was before (restored at the end, as if this output had set the mode).
    init(device: String, fd: FileDescriptor, connectorID: UInt32, crtcID: UInt32, name: String, mode: drmModeModeInfo,
         modeIsPreferred: Bool, rotation: Rotation = .upright, adopting: (buffer: DumbBuffer, saved: drmModeCrtcPtr?)? = nil) throws(DisplayError) {
        self.device = device
        self.fd = fd
        self.connectorID = connectorID
        self.crtcID = crtcID
        self.name = name
        self.mode = mode
        self.modeIsPreferred = modeIsPreferred
        self.adoptedBootFrame = adopting != nil
        self.physicalSize = Size(width: Int(mode.hdisplay), height: Int(mode.vdisplay))
        self.rotation = rotation
        self.size = rotation.turned(physicalSize)
        self.shadowBuffer = PixelBuffer(size: size)
        if let adopting {
            buffers.append(adopting.buffer)
            saved = adopting.saved
            modeSet = true
            showsBootFrame = true
            framesPresented = 1
            return
        }
        // The second buffer is made when the first flip needs it (`backBuffer()`): a picture
        // that never changes never costs it, and the first frame does not wait for it.
        buffers.append(try DumbBuffer(fd: fd, width: physicalSize.width, height: physicalSize.height, device: device, connector: name))
        saved = DRMCalls.crtc(fd, crtcID)
    }

    /// What a boot record needs to bring this output up again before anything else runs.
    public var bootRecord: (connectorID: UInt32, crtcID: UInt32, modeBytes: [UInt8], modeIsPreferred: Bool) {
        (connectorID, crtcID, withUnsafeBytes(of: mode) { Array($0) }, modeIsPreferred)
    }

    public var shadow: Canvas { shadowBuffer.canvas }
    public var canPresent: Bool { !released && !flipPending && problem == nil }

    var modeDescription: String {
        let mhz = DRMCalls.refreshMillihertz(mode)
        return "\(physicalSize.width)x\(physicalSize.height)@\(mhz / 1000).\(String(format3(mhz % 1000)).prefix(2))"
    }

    private func format3(_ v: UInt32) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)" }

    /// Sets the mode on our front buffer (see `sample(of:)` for what the first frame needs).
    func setMode() throws(DisplayError) {
        let buffer = buffers[front]
        if let code = DRMCalls.setCrtc(fd, crtc: crtcID, framebuffer: buffer.framebuffer, connector: connectorID, mode: mode) {
            let error = DRMCalls.fail(device, name, "drmModeSetCrtc", code)
            switch code {
            case EACCES, EPERM: loseMaster()
            case EINTR, EAGAIN, EBUSY: break
            default:
                if !error.deviceGone {
                    modeRefused = true
                    problem = "\(device), connector \(name): the kernel refused the mode \(modeDescription)"
                }
            }
            throw error
        }
        modeSet = true
        problem = nil
        masterLost = false
        pair.invalidate()
    }

    /// The back buffer, while damage alone brings it up to date: the renderer draws this
    /// frame's damage and the last frame's straight into it, past the shadow (write only; the
    /// buffer is not on screen, since no flip is pending).
    public var mirror: Mirror? {
        guard !inPlace.expectsSmall, rotation == .upright, canPresent, modeSet, buffers.count == 2, let lacks = pair.backLacks else { return nil }
        return Mirror(canvas: buffers[pair.back].canvas, lacks: lacks)
    }

    /// Copies this frame's and the previous frame's damage into the back buffer (it is two
    /// frames old; `mirrored`: both are in it already, drawn through `mirror`) and flips to it.
    /// Never two flips pending: the caller checks `canPresent`. Returns false when the frame
    /// was not shown (the kernel was busy); both buffers are then brought up to date in full at
    /// the next present.
    public func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        guard canPresent else { return false }
        showsBootFrame = false
        if damage.isEmpty && modeSet && (pair.backLacks != nil || pair.frontHoldsItsFrame) { return true }
        // The mode is set at the first frame, not when the device opens: until something is
        // shown, the console stays on screen. That frame goes straight into the buffer the mode
        // was set on, so no black (or stale) buffer is shown while a flip is awaited.
        if !modeSet {
            let target = buffers[front]
            target.canvas.copy(shadowBuffer.canvas.bounds, from: shadowBuffer.canvas, turnedBy: rotation)
            let written = Self.sample(of: target.canvas)
            try setMode()
            if Self.sample(of: target.canvas) != written {
                target.canvas.copy(shadowBuffer.canvas.bounds, from: shadowBuffer.canvas, turnedBy: rotation)
            }
            markDirty(target)
            pair.frontFilled(damage: damage, whole: true)
            framesPresented += 1
            return true
        }
        if rotation == .upright, inPlace.isSmall(damage, in: shadowBuffer.canvas.bounds), !mirrored,
           pair.frontHoldsItsFrame, scansOutFront {
            let screen = buffers[front]
            let rects = PixelRect.coalesce(damage)
            for rect in rects { screen.canvas.copy(rect, from: shadowBuffer.canvas) }
            markDirty(screen, rects: rects)
            pair.frontUpdated(damage: rects)
            framesPresented += 1
            return true
        }
        guard let backBuffer = self.backBuffer() else {
            // The buffer on screen holds the last frame: this frame's damage brings it up to date.
            let screen = buffers[front]
            for rect in PixelRect.coalesce(damage) { screen.canvas.copy(rect, from: shadowBuffer.canvas, turnedBy: rotation) }
            markDirty(screen)
            pair.frontFilled(damage: damage, whole: false)
            framesPresented += 1
            return true
        }
        let target = backBuffer.canvas
        for rect in pair.rectsToCopy(damage: damage, mirrored: mirrored, bounds: shadowBuffer.canvas.bounds) {
            target.copy(rect, from: shadowBuffer.canvas, turnedBy: rotation)
        }
        if let code = DRMCalls.pageFlip(fd, crtc: crtcID, framebuffer: backBuffer.framebuffer) {
            switch code {
            case EACCES, EPERM:
                loseMaster()
                pair.invalidate()
                throw DRMCalls.fail(device, name, "drmModePageFlip", code)
            case EBUSY:
                // Nothing is queued: the caller draws again at the next frame slot and flips then.
                if !saidBusyFlip {
                    saidBusyFlip = true
                    log("\(device), connector \(name): drmModePageFlip busy (\(DRMCalls.describe(code))); the frame waits for the next frame slot")
                }
                pair.invalidate()
                return false
            default:
                // No page flips on this driver: show the back buffer with a mode set instead.
                if let setCode = DRMCalls.setCrtc(fd, crtc: crtcID, framebuffer: backBuffer.framebuffer,
                                                  connector: connectorID, mode: mode) {
                    pair.invalidate()
                    let error = DRMCalls.fail(device, name, "drmModePageFlip (\(DRMCalls.describe(code))) and drmModeSetCrtc", setCode)
                    problem = error.message
                    throw error
                }
                pair.backFilled(damage: damage)
                pair.flipped()
                markDirty(backBuffer)
                framesPresented += 1
                return true
            }
        }
        flipPending = true
        pair.backFilled(damage: damage)
        framesPresented += 1
        flipQueued()
        return true
    }

    /// The buffer not on screen, made at the first flip; nil when the driver has no memory
    /// for it, and the frames then go into the buffer on screen (they may tear).
    private func backBuffer() -> DumbBuffer? {
        if buffers.count < 2 && !singleBuffered {
            do {
                buffers.append(try DumbBuffer(fd: fd, width: physicalSize.width, height: physicalSize.height, device: device, connector: name))
            } catch {
                singleBuffered = true
                fallbackReason = "\(error); drawing into the buffer on screen"
                log("\(error); one buffer: frames are drawn into the buffer on screen and may tear")
            }
        }
        return singleBuffered ? nil : buffers[1 - front]
    }

    /// The first frame after the mode set, written straight into the buffer the mode was set
    /// on (a frame cache entry read from its file): no pass through the shadow, whose pages
    /// are not even touched yet. Both buffers are then stale, so the next frames copy whole.
    /// An output adopted from a boot display already shows that frame, the same entry: true
    /// without writing.
    public func presentWhole(_ write: (Canvas) -> Bool) throws(DisplayError) -> Bool {
        guard canPresent else { return false }
        if showsBootFrame { return true }
        guard !modeSet else { return false }
        // A turned picture goes through the shadow (the entry is at the turned size).
        if rotation != .upright {
            guard write(shadowBuffer.canvas) else { return false }
            return try present(damage: [shadowBuffer.canvas.bounds], mirrored: false)
        }
        let target = buffers[front]
        var written = write(target.canvas)
        let sample = Self.sample(of: target.canvas)
        try setMode()
        if written, Self.sample(of: target.canvas) != sample { written = write(target.canvas) }
        markDirty(target)
        pair.invalidate()
        if written { framesPresented += 1 }
        return written
    }

    /// The first frame is written into its buffer before the mode set, so that the first
    /// scan-out shows it (virtio-gpu uploads the buffer with the mode set: no black frame in
    /// between), and again after it only if the mode set did not leave it alone (bochs under
    /// QEMU: the emulated VGA clears the start of its memory when a mode is set). Whether it
    /// did is told by these three rows, read back before and after.
    private static func sample(of canvas: Canvas) -> [UInt32] {
        guard canvas.height > 0 else { return [] }
        var rows: [UInt32] = []
        rows.reserveCapacity(3 * canvas.width)
        for y in [0, canvas.height / 2, canvas.height - 1] {
            rows.append(contentsOf: UnsafeBufferPointer(start: canvas.row(y), count: canvas.width))
        }
        return rows
    }

    /// The CRTC still shows the buffer on screen (a console that set its own mode took it
    /// otherwise, and only a flip or a mode set brings the frames back): asked before each
    /// write in place, as Plymouth asks before each of its writes.
    private var scansOutFront: Bool { DRMCalls.scannedOut(fd, crtc: crtcID) == buffers[front].framebuffer }

    /// The flip event arrived: the back buffer is on screen.
    func flipCompleted() {
        guard flipPending else { return }
        flipPending = false
        pair.flipped()
    }

    /// DIRTYFB after a write to the buffer on screen, for drivers that need it (virtio-gpu,
    /// cirrus); "not implemented" (bochs) is remembered and never asked again.
    private func markDirty(_ buffer: DumbBuffer, rects: [PixelRect] = []) {
        guard dirtySupported != false else { return }
        if let code = DRMCalls.dirty(fd, framebuffer: buffer.framebuffer, rects: rects) {
            if code == ENOSYS || code == EOPNOTSUPP || code == EINVAL { dirtySupported = false }
        } else {
            dirtySupported = true
        }
    }

    /// Waits (briefly) for a pending flip, so no flip is in flight when the CRTC changes hands.
    /// If its event never comes, the flip is taken as done and both buffers as stale.
    func drainFlip(handle: () -> Void) {
        var attempts = 0
        while flipPending && attempts < 4 {
            if DRMCalls.waitReadable(fd, milliseconds: 50) { handle() }
            attempts += 1
        }
        if flipPending {
            flipPending = false
            pair.flipped()
            pair.invalidate()
        }
    }

    /// Puts back what the CRTC showed before the first mode set (the console).
    func restore() {
        showsBootFrame = false
        released = true
        guard modeSet else { return }
        modeSet = false
        DRMCalls.restoreCrtc(fd, saved: saved, crtc: crtcID, connector: connectorID)
    }

    /// Let go to the text console: the CRTC as it was before the daemon's mode set when it
    /// showed something (the console's framebuffer); left showing the last frame when it was off
    /// (the card taken before the console's first mode set), for the console to set its mode
    /// over it: turning it off would show black until then.
    func restoreLeavingPictureForConsole() {
        showsBootFrame = false
        released = true
        guard modeSet else { return }
        modeSet = false
        guard let saved, saved.pointee.mode_valid != 0 else { return }
        DRMCalls.restoreCrtc(fd, saved: saved, crtc: crtcID, connector: connectorID)
    }

    /// The monitor went away: the CRTC is turned off (free for another connector), so that the
    /// buffers can go.
    func turnOff() {
        released = true
        showsBootFrame = false
        guard modeSet else { return }
        modeSet = false
        DRMCalls.disableCrtc(fd, crtcID)
    }

    /// The connector as the kernel knows it now: connected with modes, and its preferred mode;
    /// probing it first (an EDID read) when `probing`.
    func connectorNow(probing: Bool) -> (connected: Bool, preferred: drmModeModeInfo?) {
        guard let fetched = DRMCalls.connector(fd, connectorID, probing: probing) else { return (false, nil) }
        defer { DRMCalls.free(fetched) }
        let c = fetched.pointee
        guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0, let modes = c.modes else { return (false, nil) }
        for i in 0..<Int(c.count_modes) where modes[i].type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 {
            return (true, modes[i])
        }
        return (true, modes[0])
    }

    /// Leaves the last frame on screen; the buffers stay until the next program sets its mode.
    func keepPicture() {
        showsBootFrame = false
        released = true
        modeSet = false
    }

    /// Taken back after a hand-over: the next frame sets the mode again, on buffers copied whole.
    func reacquire() {
        showsBootFrame = false
        released = false
        problem = nil
        masterLost = false
        modeSet = false
        pair.invalidate()
    }

    /// Another program has DRM master: nothing of ours reaches the screen until it lets go.
    func loseMaster() {
        problem = "lost DRM master on \(device): another program has the display"
        masterLost = true
    }

    /// Notices that another program took the display while nothing was presented.
    func checkMaster() {
        if !released, problem == nil, !DRMCalls.isMaster(fd) {
            loseMaster()
        }
    }

    /// Lets the framebuffer on screen outlive this process (Linux 6.8 and later), so a
    /// retained frame stays when the daemon exits; false on older kernels.
    func detachScreenFramebuffer() -> Bool {
        DRMCalls.closeFramebuffer(fd, buffers[front].framebuffer) == nil
    }

    func destroy(keepingScreenFramebuffer: Bool = false) {
        for (index, buffer) in buffers.enumerated() {
            if keepingScreenFramebuffer && index == front { buffer.destroyKeepingFramebuffer() } else { buffer.destroy() }
        }
        buffers.removeAll()
        if let saved { DRMCalls.free(saved) }
        saved = nil
    }

    public var status: OutputStatus {
        checkMaster()
        var s = OutputStatus()
        s.connector = name
        s.mode = modeDescription
        s.crtc = Int(crtcID)
        s.flipsPending = flipPending ? 1 : 0
        s.device = device
        s.rotation = rotation.degrees
        s.buffers = buffers.count
        s.master = DRMCalls.isMaster(fd)
        s.problem = problem
        s.singleBuffered = fallbackReason
        return s
    }
}
