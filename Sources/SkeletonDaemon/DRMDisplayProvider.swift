import SkeletonBoot
import SkeletonDisplay
import SkeletonSystem

/// DRM first (the configured device, or the first card with a connected output); memory when
/// asked for, or for `auto` once the wait for a display has run out. While no card is usable it
/// watches /dev/dri (or /dev until /dev/dri exists) with inotify, so a late driver is caught.
public final class DRMDisplayProvider: DisplayProvider {
    private var watchFD: FileDescriptor?
    private var watching: String?
    /// The start's frames: the first open adopts what the boot record showed (or puts the
    /// console back), and every open is reported for the next record.
    private let start: StartFrames

    public init(start: StartFrames = StartFrames()) {
        self.start = start
    }

    deinit { watchFD?.close() }

    public var watchDescriptor: FileDescriptor? { watchFD }

    public func drainWatch() {
        if let watchFD { SystemCalls.drainDirectoryWatch(watchFD) }
        // /dev/dri appeared while we watched /dev: watch it instead.
        if watching == "/dev", SystemCalls.fileExists("/dev/dri") { startWatching() }
    }

    public func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? {
        let boot = start.takeBootDisplay()
        defer { boot?.release() }
        if settings.backend == .memory {
            return MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath)
        }
        // With `auto` and no /dev/dri at all the driver may still be loading: the caller waits
        // (display.waitSeconds) before it settles for memory.
        let options = DRMDisplay.Options(connectors: settings.outputs, modes: settings.modes)
        let log: (String) -> Void = { logger.notice($0) }
        let display: DRMDisplay?
        if let device = settings.device {
            if SystemCalls.fileExists(device) {
                do { display = try DRMDisplay.open(path: device, options: options, log: log, boot: boot) } catch {
                    logger.error("\(error)")
                    display = nil
                }
            } else {
                display = nil
            }
        } else {
            display = DRMDisplay.openFirst(options: options, log: log, boot: boot)
        }
        start.opened(display, adopting: boot, log: logger)
        if display != nil {
            watchFD?.close()
            watchFD = nil
            watching = nil
        } else if watchFD == nil {
            startWatching()
        }
        return display
    }

    private func startWatching() {
        watchFD?.close()
        let directory = SystemCalls.fileExists("/dev/dri") ? "/dev/dri" : "/dev"
        watchFD = SystemCalls.watchDirectory(directory)
        watching = watchFD == nil ? nil : directory
    }
}
