#if canImport(Glibc)
import Glibc
#endif
import CLibDRM
import SkeletonLayout
import SkeletonRender

/// A DRM device and its outputs: every connected connector (or the named ones), skipping
/// non-desktop ones, each on a CRTC of its own, in its preferred mode unless one is asked for.
public final class DRMDisplay: Display {
    public let backendName = "drm"
    public let path: String
    let fd: Int32
    public let drmOutputs: [DRMOutput]
    private var released = false
    /// The last release left our frame on screen.
    private var retained = false
    private var destroyed = false

    /// What to open: connector names (nil: all connected) and modes by connector name.
    public struct Options: Sendable {
        public var connectors: [String]?
        public var modes: [String: Size]

        public init(connectors: [String]? = nil, modes: [String: Size] = [:]) {
            self.connectors = connectors
            self.modes = modes
        }
    }

    /// Opens `path` and sets the mode on every output; nil when it has no usable output.
    /// `log` receives one line per skipped connector, saying why.
    /// A `boot` display of the same path hands over its descriptor (DRM master) and the
    /// outputs this open would drive anyway (same connector, CRTC and mode), with their cached
    /// frame on screen; the others get their CRTC back as it was before the boot display,
    /// before any new output saves that CRTC to restore it later.
    public static func open(path: String, options: Options, log: (String) -> Void, boot: BootDisplay? = nil) throws(DisplayError) -> DRMDisplay? {
        let adopting = boot?.takeDescriptor(for: path)
        let fd: Int32
        if let adopting { fd = adopting } else { fd = try DRMCalls.open(path) }
        /// Lets the boot display put back what it still holds, then closes the device.
        func giveUp() {
            if adopting != nil { boot?.release(closing: false) }
            DRMCalls.close(fd)
        }
        guard DRMCalls.supportsDumbBuffers(fd) else {
            giveUp()
            log("\(path): no dumb buffer support; skipped")
            return nil
        }
        guard let resources = drmModeGetResources(fd) else {
            let code = errno
            giveUp()
            throw DRMCalls.fail(path, nil, "drmModeGetResources", code)
        }
        defer { drmModeFreeResources(resources) }
        let res = resources.pointee
        // First what to drive: connector, CRTC and mode of each output.
        var plans: [Plan] = []
        for i in 0..<Int(res.count_connectors) {
            guard let connector = drmModeGetConnector(fd, res.connectors[i]) else { continue }
            defer { drmModeFreeConnector(connector) }
            let c = connector.pointee
            let name = DRMCalls.connectorName(type: c.connector_type, typeID: c.connector_type_id)
            guard c.connection == DRM_MODE_CONNECTED, c.count_modes > 0 else { continue }
            if let wanted = options.connectors, !wanted.contains(name) { continue }
            if DRMCalls.isNonDesktop(fd, connector: c.connector_id) {
                log("\(path), connector \(name): non-desktop (a headset); skipped")
                continue
            }
            guard let choice = OutputChoice(fd, connector: c, resources: res, wantedSize: options.modes[name],
                                            isUsed: { crtc in plans.contains { $0.crtc == crtc } }) else {
                log("\(path), connector \(name): no free CRTC; skipped")
                continue
            }
            if choice.wantedSizeMissing, let want = options.modes[name] {
                log("\(path), connector \(name): no mode \(want); using its preferred mode")
            }
            plans.append(Plan(connector: c.connector_id, crtc: choice.crtc, name: name, mode: choice.mode, modeIsPreferred: choice.modeIsPreferred))
        }
        // Then the boot display's outputs: taken over where they match, put back where not.
        let adopted = plans.map { plan in adopting == nil ? nil : boot?.adopt(connectorID: plan.connector, crtcID: plan.crtc, mode: plan.mode) }
        if adopting != nil { boot?.release(closing: false) }
        var outputs: [DRMOutput] = []
        for (plan, adoption) in zip(plans, adopted) {
            do {
                outputs.append(try DRMOutput(device: path, fd: fd, connectorID: plan.connector, crtcID: plan.crtc, name: plan.name,
                                             mode: plan.mode, modeIsPreferred: plan.modeIsPreferred, adopting: adoption))
            } catch {
                log("\(error); connector skipped")
            }
        }
        guard !outputs.isEmpty else {
            DRMCalls.close(fd)
            return nil
        }
        return DRMDisplay(path: path, fd: fd, outputs: outputs)
    }

    /// An output `open` will drive.
    private struct Plan {
        var connector: UInt32
        var crtc: UInt32
        var name: String
        var mode: drmModeModeInfo
        var modeIsPreferred: Bool
    }

    /// The first card with a connected output and dumb buffers, or nil when there is none (yet).
    public static func openFirst(options: Options, log: (String) -> Void, boot: BootDisplay? = nil) -> DRMDisplay? {
        for path in DRMCalls.cardPaths() {
            do {
                if let display = try open(path: path, options: options, log: log, boot: boot) { return display }
            } catch {
                log("\(error)")
            }
        }
        return nil
    }

    private init(path: String, fd: Int32, outputs: [DRMOutput]) {
        self.path = path
        self.fd = fd
        self.drmOutputs = outputs
    }

    deinit { close() }

    public var outputs: [any DisplayOutput] { drmOutputs }
    public var eventDescriptor: Int32? { fd }

    public func handleEvents() throws(DisplayError) {
        for crtc in DRMCalls.completedFlips(fd) {
            drmOutputs.first { $0.crtcID == crtc }?.flipCompleted()
        }
    }

    public func tick(now: Double) -> Double? { nil }

    /// Hides: restores the console (or leaves the last frame) and drops DRM master either
    /// way, so the next program (a display manager, the kiosk app) can take the display.
    public func release(retainingPicture: Bool) {
        for output in drmOutputs {
            output.drainFlip { try? handleEvents() }
            if retainingPicture { output.keepPicture() } else { output.restore() }
        }
        if !released {
            _ = DRMCalls.dropMaster(fd)
            released = true
        }
        retained = retainingPicture
    }

    public func reacquire() throws(DisplayError) {
        if let code = DRMCalls.setMaster(fd) {
            for output in drmOutputs { output.problem = "\(path): drmSetMaster failed: \(DRMCalls.describe(code))" }
            throw DRMCalls.fail(path, nil, "drmSetMaster", code)
        }
        released = false
        retained = false
        for output in drmOutputs { output.reacquire() }
    }

    public var problem: String? { drmOutputs.compactMap(\.problem).first }

    /// Unmaps and destroys everything, in reverse order of creation, and closes the device. A
    /// retained frame is detached first (CLOSEFB, Linux 6.8) so that it survives; on older
    /// kernels closing the device takes it off the screen.
    public func close() {
        guard !destroyed else { return }
        destroyed = true
        for output in drmOutputs {
            output.drainFlip { try? handleEvents() }
            output.destroy(keepingScreenFramebuffer: retained && output.detachScreenFramebuffer())
        }
        DRMCalls.close(fd)
    }
}
