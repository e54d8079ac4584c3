#if DEBUG
#if canImport(Glibc)
import Glibc
#endif
import CLibDRM
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// A DRM card in memory that stands in for the kernel behind `DRMCalls` (`DRMDouble`):
/// connectors with their modes, CRTCs, dumb buffers in anonymous memory, mode sets and page
/// flips (completed at once, as bochs and virtio-gpu complete them), and the errors a kernel
/// gives: an errno queued for a call, a memory budget for dumb buffers, sizes whose mode set
/// it refuses, and another program holding DRM master. It records the calls that change what is on
/// screen. Debug builds only, like the `DRMDoubles` it registers with; shared by the display's and
/// the daemon's tests.
package final class FakeDRMDevice: DRMDouble, @unchecked Sendable {
    package struct Connector {
        package var id: UInt32
        package var connected = true
        package var modes: [drmModeModeInfo]

        package init(id: UInt32, connected: Bool = true, modes: [drmModeModeInfo]) {
            self.id = id
            self.connected = connected
            self.modes = modes
        }
    }

    package enum Call: String {
        case createDumb, setCrtc, pageFlip
    }

    private struct Buffer {
        var width: Int
        var height: Int
        var pitch: UInt32
        var size: Int
        var memory: UnsafeMutableRawPointer
    }

    package let path: String
    package let descriptor: FileDescriptor
    package var connectors: [Connector]
    package let crtcs: [UInt32]
    /// Bytes of dumb buffers the driver holds at once; a buffer beyond fails with ENOMEM.
    package var memoryLimit = Int.max
    /// Sizes whose mode set fails with EINVAL.
    package var refusedSizes: [Size] = []
    /// Another program holds DRM master: mode sets and flips fail with EACCES, drmSetMaster
    /// with EBUSY, as the kernel answers a process that lost master.
    package var masterHeldByAnother = false
    /// drmSetMaster calls, answered or not.
    package private(set) var masterRequests = 0
    /// drmDropMaster calls.
    package private(set) var masterDrops = 0
    /// Mode sets and flips, as "setCrtc 1920x1080 fb 3" and "pageFlip fb 4".
    package private(set) var calls: [String] = []
    /// Page flips asked for while one was pending on the same CRTC.
    package private(set) var flipsOverPending = 0
    private var faults: [Call: [Int32]] = [:]
    private var buffers: [UInt32: Buffer] = [:]
    private var framebuffers: [UInt32: UInt32] = [:]
    private var scanout: [UInt32: UInt32] = [:]
    private var pendingFlips: [UInt32: UInt32] = [:]
    private var nextID: UInt32 = 100
    private var closed = false

    package init(path: String, connectors: [Connector], crtcs: [UInt32] = [31]) throws {
        self.path = path
        self.connectors = connectors
        self.crtcs = crtcs
        self.descriptor = try SystemCalls.eventCounter(blocking: false)
        DRMDoubles.register(self)
    }

    /// A mode of `width` x `height` at 60 Hz.
    package static func mode(_ width: Int, _ height: Int, preferred: Bool = false) -> drmModeModeInfo {
        var mode = drmModeModeInfo()
        mode.hdisplay = UInt16(width)
        mode.vdisplay = UInt16(height)
        mode.htotal = UInt16(width + 10)
        mode.vtotal = UInt16(height + 10)
        mode.clock = UInt32((width + 10) * (height + 10) * 60 / 1000)
        mode.vrefresh = 60
        if preferred { mode.type = UInt32(DRM_MODE_TYPE_PREFERRED) }
        return mode
    }

    /// The next `times` calls of `call` fail with `code`.
    package func fail(_ call: Call, with code: Int32, times: Int = 1) {
        faults[call, default: []] += Array(repeating: code, count: times)
    }

    /// The pixel at (x, y) of what `crtc` scans out; nil when it scans out nothing.
    package func pixel(crtc: UInt32 = 31, x: Int, y: Int) -> UInt32? {
        guard let fb = scanout[crtc], let handle = framebuffers[fb], let buffer = buffers[handle] else { return nil }
        return buffer.memory.load(fromByteOffset: y * Int(buffer.pitch) + x * 4, as: UInt32.self)
    }

    /// The size of the mode `crtc` was last set to scan out.
    package private(set) var modeSizes: [UInt32: Size] = [:]

    private func injected(_ call: Call) -> Int32? {
        guard var queue = faults[call], !queue.isEmpty else { return nil }
        let code = queue.removeFirst()
        faults[call] = queue
        return code
    }

    private func newID() -> UInt32 {
        nextID += 1
        return nextID
    }

    private func allocated<T>(_ values: [T]) -> UnsafeMutablePointer<T>? {
        guard !values.isEmpty else { return nil }
        let pointer = malloc(MemoryLayout<T>.stride * values.count)!.bindMemory(to: T.self, capacity: values.count)
        pointer.initialize(from: values, count: values.count)
        return pointer
    }

    private func encoderID(of connector: UInt32) -> UInt32 { connector + 1000 }

    // MARK: DRMDouble

    package func supportsDumbBuffers() -> Bool { true }

    package func resources() -> drmModeResPtr? {
        let res = calloc(1, MemoryLayout<drmModeRes>.size)!.bindMemory(to: drmModeRes.self, capacity: 1)
        res.pointee.count_connectors = Int32(connectors.count)
        res.pointee.connectors = allocated(connectors.map(\.id))
        res.pointee.count_encoders = Int32(connectors.count)
        res.pointee.encoders = allocated(connectors.map { encoderID(of: $0.id) })
        res.pointee.count_crtcs = Int32(crtcs.count)
        res.pointee.crtcs = allocated(crtcs)
        res.pointee.max_width = 8192
        res.pointee.max_height = 8192
        return res
    }

    package func connector(_ id: UInt32, probing: Bool) -> drmModeConnectorPtr? {
        guard let connector = connectors.first(where: { $0.id == id }) else { return nil }
        let c = calloc(1, MemoryLayout<drmModeConnector>.size)!.bindMemory(to: drmModeConnector.self, capacity: 1)
        c.pointee.connector_id = id
        c.pointee.connector_type = UInt32(DRM_MODE_CONNECTOR_VIRTUAL)
        c.pointee.connector_type_id = id
        c.pointee.connection = connector.connected ? DRM_MODE_CONNECTED : DRM_MODE_DISCONNECTED
        c.pointee.count_modes = Int32(connector.modes.count)
        c.pointee.modes = allocated(connector.modes)
        c.pointee.count_encoders = 1
        c.pointee.encoders = allocated([encoderID(of: id)])
        return c
    }

    package func encoder(_ id: UInt32) -> drmModeEncoderPtr? {
        let e = calloc(1, MemoryLayout<drmModeEncoder>.size)!.bindMemory(to: drmModeEncoder.self, capacity: 1)
        e.pointee.encoder_id = id
        e.pointee.possible_crtcs = (1 << UInt32(crtcs.count)) - 1
        return e
    }

    package func crtc(_ id: UInt32) -> drmModeCrtcPtr? { nil }

    package func createDumb(width: Int, height: Int) throws(Errno) -> (handle: UInt32, pitch: UInt32, size: UInt64) {
        if let code = injected(.createDumb) { throw Errno(code, call: "create dumb") }
        let pitch = width * 4, size = pitch * height
        let used = buffers.values.reduce(0) { $0 + $1.size }
        if used + size > memoryLimit { throw Errno(ENOMEM, call: "create dumb") }
        let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        let handle = newID()
        buffers[handle] = Buffer(width: width, height: height, pitch: UInt32(pitch), size: size, memory: memory)
        return (handle, UInt32(pitch), UInt64(size))
    }

    package func addFramebuffer(width: Int, height: Int, handle: UInt32, pitch: UInt32) throws(Errno) -> UInt32 {
        guard buffers[handle] != nil else { throw Errno(ENOENT, call: "add framebuffer") }
        let id = newID()
        framebuffers[id] = handle
        return id
    }

    package func map(handle: UInt32, size: UInt64) throws(Errno) -> UnsafeMutableRawPointer {
        guard let buffer = buffers[handle] else { throw Errno(ENOENT, call: "map") }
        return buffer.memory
    }

    package func removeFramebuffer(_ id: UInt32) { framebuffers[id] = nil }

    /// The mapping itself goes with `DRMCalls.unmap`, as a real one does.
    package func destroyDumb(_ handle: UInt32) { buffers[handle] = nil }

    package func setCrtc(_ crtc: UInt32, framebuffer: UInt32, connector: UInt32?, mode: drmModeModeInfo?) -> Int32? {
        let size = mode.map { Size(width: Int($0.hdisplay), height: Int($0.vdisplay)) }
        calls.append("setCrtc \(size.map { "\($0.width)x\($0.height)" } ?? "off") fb \(framebuffer)")
        if masterHeldByAnother { return EACCES }
        if let code = injected(.setCrtc) { return code }
        if let size, refusedSizes.contains(size) { return EINVAL }
        scanout[crtc] = framebuffer == 0 ? nil : framebuffer
        modeSizes[crtc] = size
        return nil
    }

    package func pageFlip(crtc: UInt32, framebuffer: UInt32) -> Int32? {
        calls.append("pageFlip fb \(framebuffer)")
        if pendingFlips[crtc] != nil {
            flipsOverPending += 1
            return EBUSY
        }
        if masterHeldByAnother { return EACCES }
        if let code = injected(.pageFlip) { return code }
        pendingFlips[crtc] = framebuffer
        // The flip's event makes the descriptor readable, as the kernel's does.
        SystemCalls.addToCounter(descriptor)
        return nil
    }

    package func dirty(framebuffer: UInt32, rects: [PixelRect]) -> Int32? { nil }
    package func scannedOut(crtc: UInt32) -> UInt32? { scanout[crtc] }

    package func completedFlips() -> [UInt32] {
        defer { pendingFlips = [:] }
        _ = SystemCalls.takeCounter(descriptor)
        for (crtc, fb) in pendingFlips { scanout[crtc] = fb }
        return Array(pendingFlips.keys)
    }

    package func setMaster() -> Int32? {
        masterRequests += 1
        return masterHeldByAnother ? EBUSY : nil
    }
    package func isMaster() -> Bool { !masterHeldByAnother }
    package func dropMaster() -> Int32? {
        masterDrops += 1
        return nil
    }
    package func closeFramebuffer(_ id: UInt32) -> Int32? { ENOTTY }
    package func waitReadable(milliseconds: Int32) -> Bool { !pendingFlips.isEmpty }
    package func panelOrientation(connector: UInt32) -> Int? { nil }
    package func isNonDesktop(connector: UInt32) -> Bool { false }

    /// Closed once, by the display or by the test, whichever comes first: a second close(2)
    /// could take a descriptor number another test has been given since.
    package func close() {
        guard !closed else { return }
        closed = true
        DRMDoubles.unregister(self)
        descriptor.close()
    }
}
#endif
