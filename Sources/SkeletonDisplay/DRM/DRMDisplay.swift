#if canImport(Glibc)
import Glibc
#endif
import CLibDRM
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// A DRM device and its outputs: every connected connector (or the named ones), skipping
/// non-desktop ones, each on a CRTC of its own, in its preferred mode unless one is asked for.
public final class DRMDisplay: Display {
    public let backendName = "drm"
    public let path: String
    let fd: FileDescriptor
    public internal(set) var drmOutputs: [DRMOutput] {
        didSet { connectOutputs() }
    }
    /// Where the faults the outputs work around are said (a busy flip, one buffer, a refused
    /// mode), each once.
    public var log: (String) -> Void = { _ in }
    /// The modes the kernel refused to set, by connector: not tried again.
    var refusedModes: [UInt32: [drmModeModeInfo]] = [:]
    /// Connectors whose every mode was refused: left alone, so a connector after them may have the CRTC.
    var givenUp: Set<UInt32> = []
    /// What a rescan said about connectors it skipped: said once, not at every hotplug event.
    private var saidSkips: Set<String> = []
    /// What `open` was asked for, for the outputs a hotplug adds.
    let options: Options
    private var released = false
    /// The last release left our frame on screen.
    private var retained = false
    private var destroyed = false
    /// The console a framebuffer display quieted before this display took over from it (the
    /// firmware's framebuffer's hand-over): kept in graphics mode while the skeleton shows, so
    /// that the native driver's framebuffer console set no mode of its own when it came (the
    /// text consoles' logins wait for the hide, as they wait for Plymouth: their TTYReset= would
    /// switch it to text, and the framebuffer console would force its mode over the skeleton);
    /// given back at a release without retain.
    public var inheritedConsole: ConsoleQuieter?

    /// What to open: connector names (nil: all connected), modes and rotations by connector
    /// name, and the rotation of the others (nil: each panel's "panel orientation", else none).
    public struct Options: Sendable {
        public var connectors: [String]?
        public var modes: [String: Size]
        public var rotations: [String: Rotation]
        public var rotation: Rotation?

        public init(connectors: [String]? = nil, modes: [String: Size] = [:], rotations: [String: Rotation] = [:], rotation: Rotation? = nil) {
            self.connectors = connectors
            self.modes = modes
            self.rotations = rotations
            self.rotation = rotation
        }

        /// What names a connector the device does not have, with what it has: one line each.
        func unknownConnectors(known: [String]) -> [String] {
            // Built only for a problem: a start whose settings name no connector runs none of it.
            func has() -> String { "it has \(known.isEmpty ? "none" : known.joined(separator: ", "))" }
            var problems: [String] = []
            for name in connectors ?? [] where !known.contains(name) {
                problems.append("display.outputs names \(name), a connector this device does not have (\(has()))")
            }
            for name in modes.keys.sorted() where !known.contains(name) {
                problems.append("display.modes names \(name), a connector this device does not have (\(has())); ignored")
            }
            for name in rotations.keys.sorted() where !known.contains(name) {
                problems.append("display.rotation names \(name), a connector this device does not have (\(has())); ignored")
            }
            return problems
        }

        /// The rotation of connector `name`, whose panel reports `panelOrientation` (or none).
        func rotation(of name: String, panelOrientation: Rotation?) -> Rotation {
            rotations[name] ?? rotation ?? panelOrientation ?? .upright
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
        let fd: FileDescriptor
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
        guard let resources = DRMCalls.resources(fd) else {
            let code = DRMCalls.lastErrno
            giveUp()
            throw DRMCalls.fail(path, nil, "drmModeGetResources", code)
        }
        defer { DRMCalls.free(resources) }
        let res = resources.pointee
        let known = OutputChoice.connectorNames(fd, resources: res)
        for problem in options.unknownConnectors(known: known) { log("\(path): \(problem)") }
        // First what to drive: connector, CRTC and mode of each output.
        var plans: [Plan] = []
        var skips: Set<String> = []
        OutputChoice.forEach(fd, resources: res, probing: true, accepts: { name in options.connectors?.contains(name) ?? true },
                             wantedSize: { options.modes[$0] }, isUsed: { crtc in plans.contains { $0.choice.crtc == crtc } },
                             log: { skips.insert($0); log("\(path), \($0)") }) { c, name, choice in
            let rotation = options.rotation(of: name, panelOrientation: DRMCalls.panelOrientation(fd, connector: c.connector_id).flatMap(Rotation.init(panelOrientation:)))
            plans.append(Plan(connector: c.connector_id, name: name, choice: choice, rotation: rotation))
            return true
        }
        // Then the boot display's outputs: taken over where they match, put back where not. A
        // turned output is not: the boot frame is not turned.
        let adopted = plans.map { plan in
            adopting == nil || plan.rotation != .upright ? nil
                : boot?.adopt(connectorID: plan.connector, crtcID: plan.choice.crtc, mode: plan.choice.mode)
        }
        if adopting != nil { boot?.release(closing: false) }
        var outputs: [DRMOutput] = []
        for (plan, adoption) in zip(plans, adopted) {
            if let output = makeOutput(device: path, fd: fd, connectorID: plan.connector, crtcID: plan.choice.crtc, name: plan.name,
                                       mode: plan.choice.mode, modeIsPreferred: plan.choice.modeIsPreferred, rotation: plan.rotation,
                                       adopting: adoption, log: log) {
                outputs.append(output)
            }
        }
        guard !outputs.isEmpty else {
            DRMCalls.close(fd)
            return nil
        }
        let display = DRMDisplay(path: path, fd: fd, outputs: outputs, options: options)
        display.saidSkips = skips
        return display
    }

    /// An output `open` will drive.
    private struct Plan {
        var connector: UInt32
        var name: String
        var choice: OutputChoice
        var rotation: Rotation
    }

    /// The device `open` (at `path`) or `openFirst` (with no path) would open now and the size
    /// of each output it would drive there; nil when there is none. Only asks: no mode is set.
    public static func outputSizes(path: String?, options: Options) -> (path: String, sizes: [Size])? {
        var found: (path: String, sizes: [Size])?
        func ask(_ path: String) -> Bool {
            guard let fd = try? DRMCalls.open(path) else { return true }
            defer { DRMCalls.close(fd) }
            guard DRMCalls.supportsDumbBuffers(fd), let resources = DRMCalls.resources(fd) else { return true }
            defer { DRMCalls.free(resources) }
            var crtcs: [UInt32] = []
            var sizes: [Size] = []
            OutputChoice.forEach(fd, resources: resources.pointee, probing: true, accepts: { options.connectors?.contains($0) ?? true },
                                 wantedSize: { options.modes[$0] }, isUsed: { crtcs.contains($0) }, log: { _ in }) { c, name, choice in
                crtcs.append(choice.crtc)
                let rotation = options.rotation(of: name, panelOrientation: DRMCalls.panelOrientation(fd, connector: c.connector_id).flatMap(Rotation.init(panelOrientation:)))
                sizes.append(rotation.turned(Size(width: Int(choice.mode.hdisplay), height: Int(choice.mode.vdisplay))))
                return true
            }
            if sizes.isEmpty { return true }
            found = (path, sizes)
            return false
        }
        if let path { _ = ask(path) } else { DRMCalls.forEachCard(ask) }
        return found
    }

    /// Whether /dev/dri holds a card node at all (connected or not).
    public static var anyCardPresent: Bool { !DRMCalls.cardPaths().isEmpty }

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

    private init(path: String, fd: FileDescriptor, outputs: [DRMOutput], options: Options) {
        self.path = path
        self.fd = fd
        self.drmOutputs = outputs
        self.options = options
        connectOutputs()
    }

    /// Each output reads the completions right after queueing its flip: a driver that flips at
    /// once (no vertical blank to wait for: bochs, virtio-gpu, simpledrm) has completed it by
    /// then, and the loop is spared a turn woken for it alone. A flip still pending wakes the
    /// loop through `eventDescriptor` as before. What an output works around goes to `log`.
    private func connectOutputs() {
        for output in drmOutputs {
            output.flipQueued = { [weak self] in self?.handleEvents() }
            output.log = { [weak self] in self?.log($0) }
        }
    }

    deinit { close() }

    public var outputs: [any DisplayOutput] { drmOutputs }
    public var eventDescriptor: FileDescriptor? { fd }

    public func handleEvents() {
        for crtc in DRMCalls.completedFlips(fd) {
            drmOutputs.first { $0.crtcID == crtc }?.flipCompleted()
        }
    }

    public func tick(now: Double) -> Double? { nil }

    /// Hides: restores the console (or leaves the last frame) and drops DRM master either
    /// way, so the next program (a display manager, the kiosk app) can take the display.
    public func release(retainingPicture: Bool) {
        for output in drmOutputs {
            output.drainFlip { handleEvents() }
            if retainingPicture { output.keepPicture() } else { output.restore() }
        }
        if !retainingPicture { inheritedConsole?.restore() }
        if !released {
            _ = DRMCalls.dropMaster(fd)
            released = true
        }
        retained = retainingPicture
    }

    /// Let go to the text console for good (the hide, before `close`): outputs whose CRTC showed
    /// the console before are put back as they were (where it was off, the last frame stays),
    /// and `redraw`, around the drop of DRM master it is given, has the console set its mode and
    /// draw its text (`KDSETMODE`). The console's framebuffer does not follow what it printed
    /// while the daemon was master (a getty's prompt): put back as it was, it would show what it
    /// held before, black often, until the console prints again.
    public func releaseToConsole(redraw: (_ dropMaster: () -> Void) -> Void) {
        for output in drmOutputs {
            output.drainFlip { handleEvents() }
            output.restoreLeavingPictureForConsole()
        }
        inheritedConsole?.restore()
        redraw {
            guard !self.released else { return }
            _ = DRMCalls.dropMaster(self.fd)
            self.released = true
        }
        retained = false
    }

    public func reacquire() throws(DisplayError) {
        if let code = DRMCalls.setMaster(fd) {
            for output in drmOutputs {
                // EBUSY: another process is master. EACCES, EPERM: not ours to take (no CAP_SYS_ADMIN, not the active VT).
                if [EBUSY, EACCES, EPERM].contains(code) { output.loseMaster() }
                output.problem = "\(path): drmSetMaster failed: \(DRMCalls.describe(code))"
            }
            throw DRMCalls.fail(path, nil, "drmSetMaster", code)
        }
        released = false
        retained = false
        for output in drmOutputs { output.reacquire() }
    }

    public var problem: String? { drmOutputs.compactMap(\.problem).first }

    public var heldByAnother: Bool { drmOutputs.contains { $0.masterLost } }

    // MARK: Monitors that come and go

    public var hotplugCard: String? { path.split(separator: "/").last.map(String.init) }

    /// Drops the outputs whose monitor went away (CRTC off, buffers freed) or whose preferred
    /// mode changed while none was asked for, then adds every connected connector not driven
    /// yet, on a free CRTC, as `open` would. Outputs that did not change are not touched.
    public func rescanOutputs(log: (String) -> Void) -> OutputChanges {
        guard let resources = DRMCalls.resources(fd) else {
            log("\(path): drmModeGetResources failed (\(DRMCalls.describe(DRMCalls.lastErrno))); outputs left as they are")
            return OutputChanges()
        }
        defer { DRMCalls.free(resources) }
        var kept: [DRMOutput] = []
        var removed: [DRMOutput] = []
        for output in drmOutputs {
            let now = output.connectorNow(probing: true)
            if !now.connected {
                log("\(path), connector \(output.name): disconnected; its CRTC \(output.crtcID) and buffers are given back")
                removed.append(output)
            } else if options.modes[output.name] == nil, let preferred = now.preferred, output.modeIsPreferred,
                      !DRMCalls.sameMode(preferred, output.mode) {
                log("\(path), connector \(output.name): its preferred mode is now \(preferred.hdisplay)x\(preferred.vdisplay); taking it up")
                removed.append(output)
            } else {
                kept.append(output)
            }
        }
        for output in removed {
            output.drainFlip { handleEvents() }
            output.turnOff()
            output.destroy()
        }
        let added = addConnectors(besides: kept, resources: resources.pointee, log: log)
        drmOutputs = kept + added
        return OutputChanges(added: added, removed: removed)
    }

    /// An output on every connected connector not driven by `kept` (nor given up), on a free
    /// CRTC, as `open` would make it.
    func addConnectors(besides kept: [DRMOutput], resources: drmModeRes, log: (String) -> Void) -> [DRMOutput] {
        var added: [DRMOutput] = []
        OutputChoice.forEach(fd, resources: resources, probing: true,
                             skips: { id in givenUp.contains(id) || kept.contains { $0.connectorID == id } },
                             accepts: { name in options.connectors?.contains(name) ?? true },
                             wantedSize: { options.modes[$0] },
                             isUsed: { crtc in kept.contains { $0.crtcID == crtc } || added.contains { $0.crtcID == crtc } },
                             log: { line in if saidSkips.insert(line).inserted { log("\(path), \(line)") } }) { c, name, choice in
            let rotation = options.rotation(of: name, panelOrientation: DRMCalls.panelOrientation(fd, connector: c.connector_id).flatMap(Rotation.init(panelOrientation:)))
            if let output = Self.makeOutput(device: path, fd: fd, connectorID: c.connector_id, crtcID: choice.crtc, name: name,
                                            mode: choice.mode, modeIsPreferred: choice.modeIsPreferred, rotation: rotation, log: log) {
                if released { output.restore() }
                added.append(output)
                log("\(path), connector \(name): connected; driving it at \(output.modeDescription) on CRTC \(choice.crtc)")
            }
            return true
        }
        return added
    }

    /// Unmaps and destroys everything, in reverse order of creation, and closes the device. A
    /// retained frame is detached first (CLOSEFB, Linux 6.8) so that it survives; on older
    /// kernels closing the device takes it off the screen.
    public func close() {
        guard !destroyed else { return }
        destroyed = true
        for output in drmOutputs {
            output.drainFlip { handleEvents() }
            output.destroy(keepingScreenFramebuffer: retained && output.detachScreenFramebuffer())
        }
        DRMCalls.close(fd)
    }
}
