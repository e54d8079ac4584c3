import SkeletonSystem
import SkeletonDisplay
import SkeletonLayout

/// Opens the display the settings ask for. The DRM backend plugs in here; a provider that
/// returns nil for `auto` means "no display yet" and the daemon falls back or waits.
public protocol DisplayProvider: AnyObject {
    /// Opens a display now; nil when none is available (yet).
    func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)?
    /// A descriptor that becomes readable when a display may have appeared (inotify on /dev/dri).
    var watchDescriptor: FileDescriptor? { get }
    func drainWatch()
    /// When the display `open` returned already showed the start layout's first frame, put
    /// there from the boot record before the daemon started: CLOCK_MONOTONIC seconds it was
    /// shown at. nil otherwise.
    var bootFrameShownAt: Double? { get }
    /// That frame's outputs were chosen at boot from a boot plan (`skeletond cache`), not
    /// replayed from a boot record: the start writes its record.
    var bootFrameFromPlan: Bool { get }
}

extension DisplayProvider {
    public var bootFrameShownAt: Double? { nil }
    public var bootFrameFromPlan: Bool { false }
}

/// The memory backend only.
public final class MemoryDisplayProvider: DisplayProvider {
    public init() {}

    public func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? {
        switch settings.backend {
        case .drm:
            throw DaemonError("the DRM backend is not available in this build")
        case .auto, .memory:
            return MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath)
        }
    }

    public var watchDescriptor: FileDescriptor? { nil }
    public func drainWatch() {}
}
