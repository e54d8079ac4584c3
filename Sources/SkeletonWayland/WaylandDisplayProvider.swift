import SkeletonBackend
import SkeletonDisplay
import SkeletonLog
import SkeletonSettings
import SkeletonSystem

/// `display.backend: wayland` here, every other backend by the provider it wraps. While the
/// compositor's socket is not there yet (the skeleton started beside its compositor), it
/// watches XDG_RUNTIME_DIR (or the socket's directory) with inotify, so the window opens the
/// moment the socket appears.
public final class WaylandDisplayProvider: DisplayProvider {
    private let otherwise: any DisplayProvider
    private var watchFD: FileDescriptor?
    private var waylandAsked = false

    public init(otherwise: any DisplayProvider) {
        self.otherwise = otherwise
    }

    deinit { watchFD?.close() }

    public func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? {
        waylandAsked = settings.backend == .wayland
        guard waylandAsked else {
            stopWatching()
            return try otherwise.open(settings: settings, logger: logger)
        }
        let socket = settings.wayland.socket ?? SystemCalls.environment("WAYLAND_DISPLAY") ?? "wayland-0"
        let path = socket.hasPrefix("/") ? socket : SystemCalls.environment("XDG_RUNTIME_DIR").map { "\($0)/\(socket)" }
        if let path, !SystemCalls.fileExists(path) {
            watch(directoryOf: path)
            return nil
        }
        do {
            let display = try WaylandDisplay.open(socket: socket, fallbackSize: settings.memorySize,
                                                      stayOnTop: settings.wayland.stayOnTop)
            stopWatching()
            logger.info("wayland: a fullscreen window of \(display.compositorName) at \(socket)")
            display.note = { logger.info($0) }
            return display
        } catch {
            if let path { watch(directoryOf: path) }
            throw DaemonError("\(error)")
        }
    }

    public var watchDescriptor: FileDescriptor? { waylandAsked ? watchFD : otherwise.watchDescriptor }

    public func drainWatch() {
        if waylandAsked, let watchFD { SystemCalls.drainDirectoryWatch(watchFD) } else { otherwise.drainWatch() }
    }

    public func replacement(settings: Settings, logger: Logger) -> (any Display)? {
        settings.backend == .wayland ? nil : otherwise.replacement(settings: settings, logger: logger)
    }

    private func watch(directoryOf path: String) {
        guard watchFD == nil else { return }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        watchFD = SystemCalls.watchDirectory(directory.isEmpty ? "/" : directory)
    }

    private func stopWatching() {
        watchFD?.close()
        watchFD = nil
    }
}
