import SkeletonDisplay
import SkeletonLog
import SkeletonSettings
import SkeletonSystem

/// Opens the display the settings ask for. The DRM backend plugs in here; a provider that
/// returns nil for `auto` means "no display yet" and the daemon falls back or waits.
public protocol DisplayProvider: AnyObject {
    /// Opens a display now; nil when none is available (yet).
    func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)?
    /// A descriptor that becomes readable when a display may have appeared (inotify on /dev/dri).
    var watchDescriptor: FileDescriptor? { get }
    func drainWatch()
    /// A better display than the one open now, when one appeared (the native DRM driver after
    /// the firmware's framebuffer): opened, for the host to move to. nil: stay.
    func replacement(settings: Settings, logger: Logger) -> (any Display)?
}

extension DisplayProvider {
    public func replacement(settings: Settings, logger: Logger) -> (any Display)? { nil }
}
