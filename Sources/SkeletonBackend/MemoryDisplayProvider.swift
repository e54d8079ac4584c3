import SkeletonDisplay
import SkeletonLog
import SkeletonSettings
import SkeletonSystem

/// The memory backend only.
public final class MemoryDisplayProvider: DisplayProvider {
    public init() {}

    public func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? {
        switch settings.backend {
        case .drm, .fbdev, .wayland, .x11:
            throw DaemonError("the \(settings.backend.rawValue) backend is not available in this build")
        case .auto, .memory:
            return MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath)
        }
    }

    public var watchDescriptor: FileDescriptor? { nil }
    public func drainWatch() {}
}
