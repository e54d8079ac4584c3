import CLibDRM
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

extension BootDisplay {
    /// A boot plan's display: the outputs `DRMDisplay.open` will drive, chosen now and shown
    /// with the frame `frame` gives for each one's size. On `device`, or else on the first card
    /// with such an output (as `DRMDisplay.openFirst` picks): every connected connector whose
    /// name `accepts` takes, non-desktop ones skipped, each in the mode of `wantedSize` (by
    /// connector name) or its preferred one. Connectors as the kernel last probed them (an EDID
    /// read would cost tens of milliseconds each; `DRMDisplay.open` probes, and adopts only the
    /// outputs it would drive the same way).
    ///
    /// nil, with the screen untouched, when no card has such an output or one of the outputs
    /// has no frame of its size: the start then goes the usual way.
    public static func probe(device: String?, accepts: (String) -> Bool, wantedSize: (String) -> Size?,
                             frame: (Size) -> ((Canvas) -> Bool)?) -> BootDisplay? {
        if let device {
            guard case .shown(let display) = probe(path: device, accepts: accepts, wantedSize: wantedSize, frame: frame) else { return nil }
            return display
        }
        var shown: BootDisplay?
        DRMCalls.forEachCard { path in
            switch probe(path: path, accepts: accepts, wantedSize: wantedSize, frame: frame) {
            case .shown(let display):
                shown = display
                return false
            case .noOutput: return true
            case .refused: return false
            }
        }
        return shown
    }

    private enum Probe {
        case shown(BootDisplay)
        /// The card has no output to drive: the next card may.
        case noOutput
        /// An output the daemon will drive cannot be shown from the plan.
        case refused
    }

    private static func probe(path: String, accepts: (String) -> Bool, wantedSize: (String) -> Size?,
                              frame: (Size) -> ((Canvas) -> Bool)?) -> Probe {
        guard let fd = try? DRMCalls.open(path) else { return .noOutput }
        guard DRMCalls.supportsDumbBuffers(fd), let resources = DRMCalls.resources(fd) else {
            DRMCalls.close(fd)
            return .noOutput
        }
        defer { DRMCalls.free(resources) }
        let res = resources.pointee
        var screens: BootScreen?
        var refused = false
        OutputChoice.forEach(fd, resources: res, probing: false, accepts: accepts, wantedSize: wantedSize,
                             isUsed: { crtc in screens?.uses(crtc) ?? false }, log: { _ in }) { c, _, choice in
            guard let writeFrame = frame(Size(width: Int(choice.mode.hdisplay), height: Int(choice.mode.vdisplay))) else {
                refused = true
                return false
            }
            screens = BootScreen(connectorID: c.connector_id, crtcID: choice.crtc, mode: choice.mode,
                                 modeIsPreferred: choice.modeIsPreferred, next: screens, writeFrame: writeFrame)
            return true
        }
        if refused {
            DRMCalls.close(fd)
            return .refused
        }
        guard let screens else {
            DRMCalls.close(fd)
            return .noOutput
        }
        guard let display = show(path: path, fd: fd, screens: screens, fromPlan: true) else { return .refused }
        return .shown(display)
    }
}
