import CLibDRM
import SkeletonSystem
import SkeletonLayout

/// How a connected connector is driven: on which CRTC and in which mode. `DRMDisplay.open`
/// and the boot plan (`BootDisplay.probe`) choose alike, so that the display the daemon opens
/// adopts what the boot plan put on screen.
struct OutputChoice {
    var crtc: UInt32
    var mode: drmModeModeInfo
    var modeIsPreferred: Bool
    /// A size was asked for and the connector offers no mode of that size: the preferred mode
    /// is used instead.
    var wantedSizeMissing: Bool

    /// The connector's preferred mode, or the mode of `wantedSize` when it offers one, on its
    /// current CRTC when free, else on the first free one its encoders can drive. nil when no
    /// CRTC is free. `isUsed` says which CRTCs other outputs have taken.
    init?(_ fd: FileDescriptor, connector c: drmModeConnector, resources res: drmModeRes, wantedSize: Size?, isUsed: (UInt32) -> Bool) {
        guard c.count_modes > 0, let modes = c.modes, let crtc = Self.pickCrtc(fd, connector: c, resources: res, isUsed: isUsed) else {
            return nil
        }
        var preferred = 0
        for i in 0..<Int(c.count_modes) where modes[i].type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0 {
            preferred = i
            break
        }
        var chosen = preferred
        var missing = false
        if let wantedSize {
            missing = true
            for i in 0..<Int(c.count_modes) where Int(modes[i].hdisplay) == wantedSize.width && Int(modes[i].vdisplay) == wantedSize.height {
                chosen = i
                missing = false
                break
            }
        }
        self.crtc = crtc
        self.mode = modes[chosen]
        self.modeIsPreferred = DRMCalls.sameMode(modes[chosen], modes[preferred])
        self.wantedSizeMissing = missing
    }

    /// Walks a device's connectors as the daemon drives them: each connected one whose name
    /// `accepts` takes, non-desktop ones skipped, with the CRTC and mode chosen for it (by
    /// `wantedSize` of its name), until `body` returns false. `isUsed` says which CRTCs the
    /// outputs `body` took are on. `probing`: the connectors are probed (an EDID read, tens of
    /// milliseconds each) rather than taken as the kernel last probed them. `log` says why a
    /// connector was skipped or not given the size asked for. Connectors whose id `skips` are
    /// not even fetched (those already driven).
    static func forEach(_ fd: FileDescriptor, resources res: drmModeRes, probing: Bool, skips: (UInt32) -> Bool = { _ in false },
                        accepts: (String) -> Bool, wantedSize: (String) -> Size?, isUsed: (UInt32) -> Bool, log: (String) -> Void,
                        _ body: (drmModeConnector, String, OutputChoice) -> Bool) {
        for i in 0..<Int(res.count_connectors) where !skips(res.connectors[i]) {
            let fetched = DRMCalls.connector(fd, res.connectors[i], probing: probing)
            guard let connector = fetched else { continue }
            defer { DRMCalls.free(connector) }
            let c = connector.pointee
            guard c.connection == DRM_MODE_CONNECTED else { continue }
            let name = DRMCalls.connectorName(type: c.connector_type, typeID: c.connector_type_id)
            guard accepts(name) else { continue }
            guard c.count_modes > 0 else {
                log("connector \(name): connected but offers no mode (its EDID is missing or could not be read); skipped")
                continue
            }
            if DRMCalls.isNonDesktop(fd, connector: c.connector_id) {
                log("connector \(name): non-desktop (a headset); skipped")
                continue
            }
            let wanted = wantedSize(name)
            guard let choice = OutputChoice(fd, connector: c, resources: res, wantedSize: wanted, isUsed: isUsed) else {
                log("connector \(name): no free CRTC; skipped")
                continue
            }
            if choice.wantedSizeMissing, let wanted {
                log("connector \(name): no mode \(wanted) (it offers \(Self.offeredSizes(c))); using its preferred mode")
            }
            guard body(c, name, choice) else { return }
        }
    }

    /// The distinct sizes of a connector's modes, in its order (preferred first), as "WxH, WxH".
    static func offeredSizes(_ c: drmModeConnector) -> String {
        var sizes: [String] = []
        for i in 0..<Int(c.count_modes) {
            let size = "\(c.modes[i].hdisplay)x\(c.modes[i].vdisplay)"
            if !sizes.contains(size) { sizes.append(size) }
        }
        return sizes.count > 12 ? sizes.prefix(12).joined(separator: ", ") + " and \(sizes.count - 12) more" : sizes.joined(separator: ", ")
    }

    /// The modes of a connector in its order (preferred first, then larger before smaller), as
    /// the kernel last probed them; empty when it has none or cannot be asked.
    static func modes(_ fd: FileDescriptor, connector id: UInt32) -> [drmModeModeInfo] {
        guard let fetched = DRMCalls.connector(fd, id, probing: false) else { return [] }
        defer { DRMCalls.free(fetched) }
        let c = fetched.pointee
        guard let modes = c.modes else { return [] }
        return (0..<Int(c.count_modes)).map { modes[$0] }
    }

    /// The names of every connector of a device, connected or not, as the kernel last probed them.
    static func connectorNames(_ fd: FileDescriptor, resources res: drmModeRes) -> [String] {
        (0..<Int(res.count_connectors)).compactMap { i in
            guard let c = DRMCalls.connector(fd, res.connectors[i], probing: false) else { return nil }
            defer { DRMCalls.free(c) }
            return DRMCalls.connectorName(type: c.pointee.connector_type, typeID: c.pointee.connector_type_id)
        }
    }

    private static func pickCrtc(_ fd: FileDescriptor, connector c: drmModeConnector, resources res: drmModeRes, isUsed: (UInt32) -> Bool) -> UInt32? {
        if c.encoder_id != 0, let encoder = DRMCalls.encoder(fd, c.encoder_id) {
            defer { DRMCalls.free(encoder) }
            let crtc = encoder.pointee.crtc_id
            if crtc != 0 && !isUsed(crtc) { return crtc }
        }
        for e in 0..<Int(c.count_encoders) {
            guard let encoder = DRMCalls.encoder(fd, c.encoders[e]) else { continue }
            defer { DRMCalls.free(encoder) }
            for k in 0..<Int(res.count_crtcs) where encoder.pointee.possible_crtcs & (1 << UInt32(k)) != 0 {
                let crtc = res.crtcs[k]
                if !isUsed(crtc) { return crtc }
            }
        }
        return nil
    }
}
