import CLibDRM
import SkeletonSystem

/// The display as a previous start left it, brought up first thing at boot from the daemon's
/// boot record: the device opened, each recorded output checked against what the kernel
/// reports now, its mode set and its cached first frame read in; or, from a boot plan that an
/// image builder's `skeletond cache` wrote, the outputs chosen now (`probe`). This is the whole
/// of what runs before the first frame, so it stays small: no settings, no layout.
///
/// `DRMDisplay.open` adopts the device and the outputs it would drive anyway; whatever it does
/// not adopt goes back as it was (`release`).
public final class BootDisplay {
    public let path: String
    private(set) var fd: FileDescriptor?
    private let screens: BootScreen
    /// CLOCK_MONOTONIC seconds when the frame was on screen.
    public let shownAt: Double
    /// The outputs were chosen at boot (a boot plan), not recorded by a previous start.
    public let fromPlan: Bool

    private init(path: String, fd: FileDescriptor, screens: BootScreen, shownAt: Double, fromPlan: Bool) {
        self.path = path
        self.fd = fd
        self.screens = screens
        self.shownAt = shownAt
        self.fromPlan = fromPlan
    }

    deinit { release() }

    /// Opens `path`, checks that every screen is still current, then shows them all; nil
    /// (with nothing changed on screen) when anything does not match.
    public static func show(path: String, screens: BootScreen) -> BootDisplay? {
        guard let fd = try? DRMCalls.open(path) else { return nil }
        guard DRMCalls.supportsDumbBuffers(fd) else {
            DRMCalls.close(fd)
            return nil
        }
        var screen: BootScreen? = screens
        while let s = screen {
            guard s.isCurrent(fd) else {
                DRMCalls.close(fd)
                return nil
            }
            screen = s.next
        }
        return show(path: path, fd: fd, screens: screens, fromPlan: false)
    }

    /// Sets each screen's mode and writes its frame. When one fails, the screens shown go
    /// back as they were and the device is closed.
    static func show(path: String, fd: FileDescriptor, screens: BootScreen, fromPlan: Bool) -> BootDisplay? {
        var screen: BootScreen? = screens
        while let s = screen {
            guard s.show(fd, device: path) else {
                var shown: BootScreen? = screens
                while let r = shown, r !== s { r.release(fd); shown = r.next }
                DRMCalls.close(fd)
                return nil
            }
            screen = s.next
        }
        return BootDisplay(path: path, fd: fd, screens: screens, shownAt: SystemCalls.monotonicSeconds(), fromPlan: fromPlan)
    }

    /// The device, for `DRMDisplay.open` of the same path: it stays DRM master.
    func takeDescriptor(for path: String) -> FileDescriptor? {
        guard path == self.path, let fd else { return nil }
        return fd
    }

    /// The recorded output on this connector, CRTC and mode, if there is one: its buffer (on
    /// screen) and the CRTC as it was before the boot path set its mode.
    func adopt(connectorID: UInt32, crtcID: UInt32, mode: drmModeModeInfo) -> (buffer: DumbBuffer, saved: drmModeCrtcPtr?)? {
        var screen: BootScreen? = screens
        while let s = screen {
            if let adopted = s.adopt(connectorID: connectorID, crtcID: crtcID, mode: mode) { return adopted }
            screen = s.next
        }
        return nil
    }

    /// Whether every recorded output was adopted: the whole picture is the cached frame.
    public var allAdopted: Bool {
        var screen: BootScreen? = screens
        while let s = screen {
            if !s.adopted { return false }
            screen = s.next
        }
        return true
    }

    /// Restores and destroys what was not adopted. The device is closed unless a `DRMDisplay`
    /// took it (it then closes it).
    public func release(closing: Bool = true) {
        guard let fd else { return }
        var screen: BootScreen? = screens
        while let s = screen {
            s.release(fd)
            screen = s.next
        }
        if closing { DRMCalls.close(fd) }
        self.fd = nil
    }
}
