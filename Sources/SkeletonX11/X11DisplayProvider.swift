import SkeletonBackend
import SkeletonDisplay
import SkeletonLog
import SkeletonSettings
import SkeletonSystem

/// `display.backend: x11` here, every other backend by the provider it wraps. While the X
/// server's socket is not there yet (the skeleton started beside its server), it watches
/// /tmp/.X11-unix with inotify, so the window opens the moment the socket appears.
public final class X11DisplayProvider: DisplayProvider {
    private let otherwise: any DisplayProvider
    private var watchFD: FileDescriptor?
    private var x11Asked = false

    /// Where X servers on this machine listen: /tmp/.X11-unix/X0 for ":0".
    static let socketDirectory = "/tmp/.X11-unix"

    public init(otherwise: any DisplayProvider) {
        self.otherwise = otherwise
    }

    deinit { watchFD?.close() }

    public func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? {
        x11Asked = settings.backend == .x11
        guard x11Asked else {
            stopWatching()
            return try otherwise.open(settings: settings, logger: logger)
        }
        let name = settings.x11.display ?? SystemCalls.environment("DISPLAY") ?? ":0"
        if let socket = Self.localSocket(of: name), !SystemCalls.fileExists(socket) {
            watch()
            return nil
        }
        do {
            let display = try X11Display.open(display: name, stayOnTop: settings.x11.stayOnTop)
            stopWatching()
            logger.info("x11: a window over the screen of \(display.serverName) at \(name); \(display.stackingNote)")
            display.note = { logger.info($0) }
            return display
        } catch {
            if Self.localSocket(of: name) != nil { watch() }
            throw DaemonError("\(error)")
        }
    }

    /// The socket of a local display (":0", ":1.0"); nil for one reached otherwise (a host name).
    static func localSocket(of display: String) -> String? {
        guard display.hasPrefix(":") else { return nil }
        let number = display.dropFirst().prefix { $0 != "." }
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        return "\(socketDirectory)/X\(number)"
    }

    public var watchDescriptor: FileDescriptor? { x11Asked ? watchFD : otherwise.watchDescriptor }

    public func drainWatch() {
        if x11Asked, let watchFD { SystemCalls.drainDirectoryWatch(watchFD) } else { otherwise.drainWatch() }
    }

    public func replacement(settings: Settings, logger: Logger) -> (any Display)? {
        settings.backend == .x11 ? nil : otherwise.replacement(settings: settings, logger: logger)
    }

    private func watch() {
        guard watchFD == nil else { return }
        watchFD = SystemCalls.watchDirectory(SystemCalls.fileExists(Self.socketDirectory) ? Self.socketDirectory : "/tmp")
    }

    private func stopWatching() {
        watchFD?.close()
        watchFD = nil
    }
}
