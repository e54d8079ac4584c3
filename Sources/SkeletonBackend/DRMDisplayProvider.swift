import SkeletonSettings
import SkeletonBoot
import SkeletonDisplay
import SkeletonLog
import SkeletonRender
import SkeletonSystem

/// DRM first (the configured device, or the first card with a connected output); for `auto`
/// with no DRM card at all, the framebuffer device (`/dev/fb0`); `fbdev` (or a `/dev/fbN`
/// device) only that; memory when asked for, or for `auto` once the wait for a display has run
/// out. While no card is usable it watches /dev/dri (or /dev until /dev/dri exists) with
/// inotify, so a late driver is caught, and takes over from the framebuffer (`replacement`).
public final class DRMDisplayProvider: DisplayProvider {
    private var watchFD: FileDescriptor?
    private var watching: String?
    /// The start's frames: the first open adopts what the boot record showed (or puts the
    /// console back), and every open is reported for the next record.
    private let start: StartFrames
    /// The framebuffer display this provider opened last, while it is the one in use.
    private var framebuffer: FramebufferDisplay?
    /// What opening DRM displays said since one last opened.
    private var said: Set<String> = []

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
        let bootFramebuffer = start.takeBootFramebuffer()
        defer { bootFramebuffer?.release() }
        framebuffer = nil
        if settings.backend == .wayland || settings.backend == .x11 {
            throw DaemonError("the \(settings.backend.rawValue) backend is opened by a provider of its own, which this executable lacks")
        }
        if settings.backend == .memory {
            return MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath)
        }
        if settings.backend == .fbdev || settings.device.map(Self.isFramebufferPath) == true {
            start.opened(nil, adopting: boot, log: logger)
            let display = openFramebuffer(settings.device ?? Self.firstFramebuffer, settings: settings, logger: logger, boot: bootFramebuffer)
            if display == nil { startWatching() } else { stopWatching() }
            return display
        }
        // With `auto` and no /dev/dri at all the driver may still be loading: the caller waits
        // (display.waitSeconds) before it settles for memory.
        let display = openDRM(settings: settings, logger: logger, boot: boot)
        start.opened(display, adopting: boot, log: logger)
        if let display {
            // A card that takes the screen from the framebuffer the boot path drew on gives the
            // console back when it lets the screen go, as after a hand-over.
            display.inheritedConsole = bootFramebuffer?.detachConsole()
            stopWatching()
            return display
        }
        // No card at all (not one without a connected output): the firmware's framebuffer, or a
        // board with fbdev only. The watch stays, for the native driver to take over.
        if watchFD == nil { startWatching() }
        if settings.backend == .auto, settings.device == nil, !DRMDisplay.anyCardPresent,
           SystemCalls.fileExists(Self.firstFramebuffer) {
            return openFramebuffer(Self.firstFramebuffer, settings: settings, logger: logger, boot: bootFramebuffer)
        }
        return nil
    }

    /// While the firmware's framebuffer shows the skeleton (`auto`), a DRM card with a
    /// connected output takes over: opened here, with the console the framebuffer quieted.
    public func replacement(settings: Settings, logger: Logger) -> (any Display)? {
        guard let framebuffer, settings.backend == .auto, settings.device == nil,
              let drm = openDRM(settings: settings, logger: logger, boot: nil) else { return nil }
        start.opened(drm, adopting: nil, log: logger)
        drm.inheritedConsole = framebuffer.detachConsole()
        self.framebuffer = nil
        stopWatching()
        return drm
    }

    private func openDRM(settings: Settings, logger: Logger, boot: BootDisplay?) -> DRMDisplay? {
        let options = DRMDisplay.Options(connectors: settings.outputs, modes: settings.modes, rotations: settings.rotations,
                                          rotation: settings.rotation)
        // While waiting, the same card is asked again and again: each line is said once.
        let log: (String) -> Void = { [unowned self] line in
            if said.insert(line).inserted { logger.notice(line) }
        }
        let display: DRMDisplay?
        if let device = settings.device {
            guard SystemCalls.fileExists(device) else { return nil }
            do { display = try DRMDisplay.open(path: device, options: options, log: log, boot: boot) } catch {
                if said.insert("\(error)").inserted { logger.error("\(error)") }
                return nil
            }
        } else {
            display = DRMDisplay.openFirst(options: options, log: log, boot: boot)
        }
        if display != nil { said = [] }
        display?.log = { logger.warning($0) }
        return display
    }

    private func openFramebuffer(_ path: String, settings: Settings, logger: Logger, boot: BootFramebuffer?) -> FramebufferDisplay? {
        guard SystemCalls.fileExists(path) else { return nil }
        do {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let display = try FramebufferDisplay.open(path: path, rotation: settings.rotations[name] ?? settings.rotation ?? .upright,
                                                      boot: boot)
            start.openedFramebuffer(display, adopting: boot, log: logger)
            logger.info("\(path): \(display.info.id), \(display.info.width)x\(display.info.height), \(display.format), \(display.info.lineLength) bytes a row, \(display.doubleBuffered ? "two pages (panned)" : "one page"), turned \(display.rotation)")
            framebuffer = display
            return display
        } catch {
            logger.error("\(error)")
            return nil
        }
    }

    static let firstFramebuffer = "/dev/fb0"

    /// `/dev/fbN`: a framebuffer device rather than a DRM card.
    static func isFramebufferPath(_ path: String) -> Bool {
        guard let name = path.split(separator: "/").last, name.hasPrefix("fb") else { return false }
        return name.dropFirst(2).allSatisfy(\.isNumber) && name.count > 2
    }

    private func stopWatching() {
        watchFD?.close()
        watchFD = nil
        watching = nil
    }

    private func startWatching() {
        stopWatching()
        let directory = SystemCalls.fileExists("/dev/dri") ? "/dev/dri" : "/dev"
        watchFD = SystemCalls.watchDirectory(directory)
        watching = watchFD == nil ? nil : directory
    }
}
