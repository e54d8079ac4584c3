import SkeletonBoot
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import SkeletonSystem

/// Which display backend to use.
public enum Backend: String, Sendable, CaseIterable {
    /// DRM when a card is there, else a framebuffer device, else (after the wait) memory.
    case auto
    case drm
    /// A framebuffer device (`/dev/fb0`, or `display.device`).
    case fbdev
    case memory
    /// A fullscreen window of a Wayland compositor (`display.wayland`).
    case wayland
    /// A window over the whole screen of an X server (`display.x11`).
    case x11
}

/// The daemon's settings: its own file (/etc/skeletond/skeletond.json), then flags.
public struct Settings: Sendable, Equatable {
    public var socketPath = "/run/skeletond/control.sock"
    public var socketMode: UInt32 = 0o660
    /// A group name or a numeric gid allowed to connect, besides root.
    public var socketGroup: String?
    public var layoutsDirectory = "/etc/skeletond/layouts"
    /// A layout name (or a file path) shown at start; nil shows nothing until a `show`.
    public var startLayout: String? = "default"
    public var backend = Backend.auto
    /// A DRM device path; nil picks the first card with a connected output.
    public var device: String?
    /// Connector names to use; nil uses every connected one.
    public var outputs: [String]?
    /// Modes by connector name; others use their preferred mode.
    public var modes: [String: Size] = [:]
    /// The clockwise turn of the picture on every output (nil: each panel's "panel
    /// orientation", else none), and by connector name.
    public var rotation: Rotation?
    public var rotations: [String: Rotation] = [:]
    /// Layouts by connector name (a logo on the customer display); the others show the main one.
    public var outputLayouts: [String: String] = [:]
    public var maxFPS = 60
    /// The frame-rate caps the settings file (`display.maxFps`) and `--max-fps` take.
    public static let maxFPSRange: ClosedRange<Int> = 1...240
    /// How long to wait for a display to appear at boot before falling back.
    public var displayWaitSeconds = 10.0
    /// The seconds the settings file (`display.waitSeconds`) and `--display-wait` take.
    public static let displayWaitRange: ClosedRange<Double> = 0...600
    public var memorySize = Size(width: 1280, height: 720)
    public var snapshotPath: String?
    /// The Wayland backend's compositor, and what follows when it goes away.
    public var wayland = WaylandSettings()
    /// The X11 backend's server, and what follows when it goes away.
    public var x11 = X11Settings()
    public var logLevel = LogLevel.info
    /// The abstract socket name Plymouth's clients are answered on; nil: not at all.
    public var plymouthSocket: String?
    /// Where psplash's FIFO is made and read (`psplash.fifo`); nil: not at all.
    public var psplashFIFO: String?
    /// Where the start layout's first frame is kept per output size (see `FrameCache`); nil: no cache.
    public var frameCacheDirectory: String? = Settings.defaultFrameCacheDirectory
    /// What shows while the system goes down (`shutdown`).
    public var shutdown = ShutdownSettings()
    /// Passwords and questions asked at boot, and the keyboard they are typed on.
    public var prompts = PromptSettings()

    public init() {}

    public static let defaultPath = BootDefaults.settingsPath
    public static let defaultFrameCacheDirectory = BootDefaults.frameCacheDirectory

    /// The mark that keeps a restarted daemon from covering the app (see `HiddenMark`).
    public var hiddenMark: HiddenMark { HiddenMark(socketPath: socketPath) }

    /// Parses a settings file's bytes; every problem is reported with its JSON path.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<Settings, LayoutError> {
        let document: JSONValue
        do { document = try JSONValue.parse(bytes) } catch {
            return .failure(LayoutError(file: file, issues: [LayoutIssue(path: "", message: "not valid JSON: \(error)")]))
        }
        var s = Settings()
        var r = ValueReader()
        if var top = r.object(document, .document) {
            _ = top.member("$schema")
            _ = top.member("description")
            if let m = top.member("socket"), var o = r.object(m.value, m.path) {
                if let v = o.member("path"), let p = r.string(v.value, v.path) {
                    if p.hasPrefix("/") { s.socketPath = p } else { r.fail(v.path, "expected an absolute path, found \"\(p)\"") }
                }
                if let v = o.member("mode"), let text = r.string(v.value, v.path) {
                    if let mode = UInt32(text, radix: 8), mode <= 0o777 { s.socketMode = mode }
                    else { r.fail(v.path, "expected an octal mode such as \"0660\", found \"\(text)\"") }
                }
                if let v = o.member("group") {
                    if case .null = v.value { s.socketGroup = nil } else { s.socketGroup = r.string(v.value, v.path) }
                }
                r.issues += o.unknownKeyIssues()
            }
            if let m = top.member("layouts"), var o = r.object(m.value, m.path) {
                if let v = o.member("directory"), let d = r.string(v.value, v.path) { s.layoutsDirectory = d }
                if let v = o.member("start") {
                    if case .null = v.value { s.startLayout = nil } else { s.startLayout = r.string(v.value, v.path) }
                }
                r.issues += o.unknownKeyIssues()
            }
            if let m = top.member("display"), var o = r.object(m.value, m.path) {
                if let v = o.member("backend"), let b = r.enumeration(v.value, v.path, Backend.self) { s.backend = b }
                if let v = o.member("device"), let d = r.string(v.value, v.path) { s.device = d == "auto" ? nil : d }
                if let v = o.member("outputs") {
                    if case .string("all") = v.value { s.outputs = nil }
                    else if let items = r.array(v.value, v.path) {
                        s.outputs = items.enumerated().compactMap { r.string($0.element, v.path.index($0.offset)) }
                    }
                }
                if let v = o.member("modes"), case .object(let modes) = v.value {
                    for (name, value) in modes.sorted(by: { $0.key < $1.key }) {
                        if let text = r.string(value, v.path.key(name)) {
                            if let size = Size(parsing: text) { s.modes[name] = size }
                            else { r.fail(v.path.key(name), "expected a mode WxH such as \"1920x1080\", found \"\(text)\"") }
                        }
                    }
                } else if let v = o.member("modes") {
                    r.fail(v.path, "expected an object of connector names to modes, found \(v.value.typeDescription)")
                }
                if let v = o.member("layouts"), case .object(let layouts) = v.value {
                    for (name, value) in layouts.sorted(by: { $0.key < $1.key }) {
                        if let text = r.string(value, v.path.key(name)) {
                            if text.isEmpty { r.fail(v.path.key(name), "expected a layout name or file, found \"\"") }
                            else { s.outputLayouts[name] = text }
                        }
                    }
                } else if let v = o.member("layouts") {
                    r.fail(v.path, "expected an object of connector names to layouts, found \(v.value.typeDescription)")
                }
                if let v = o.member("rotation") {
                    switch v.value {
                    case .null: s.rotation = nil
                    case .object(let byName):
                        for (name, value) in byName.sorted(by: { $0.key < $1.key }) {
                            if let n = r.integer(value, v.path.key(name), in: 0...270) {
                                if let rotation = Rotation(degrees: n) { s.rotations[name] = rotation }
                                else { r.fail(v.path.key(name), "expected 0, 90, 180 or 270, found \(n)") }
                            }
                        }
                    default:
                        if let n = r.integer(v.value, v.path, in: 0...270) {
                            if let rotation = Rotation(degrees: n) { s.rotation = rotation }
                            else { r.fail(v.path, "expected 0, 90, 180 or 270, found \(n)") }
                        }
                    }
                }
                if let v = o.member("maxFps"), let n = r.integer(v.value, v.path, in: Settings.maxFPSRange) { s.maxFPS = n }
                if let v = o.member("waitSeconds"), let n = r.number(v.value, v.path, in: Settings.displayWaitRange) { s.displayWaitSeconds = n }
                if let v = o.member("memorySize"), let text = r.string(v.value, v.path) {
                    if let size = Size(parsing: text) { s.memorySize = size }
                    else { r.fail(v.path, "expected WxH such as \"1280x720\", found \"\(text)\"") }
                }
                if let v = o.member("snapshot") {
                    if case .null = v.value { s.snapshotPath = nil } else { s.snapshotPath = r.string(v.value, v.path) }
                }
                if let v = o.member("wayland") { s.wayland = WaylandSettings.read(v.value, v.path, &r) }
                if let v = o.member("x11") { s.x11 = X11Settings.read(v.value, v.path, &r) }
                r.issues += o.unknownKeyIssues()
            }
            if let m = top.member("frameCache") {
                if case .null = m.value { s.frameCacheDirectory = nil }
                else if let d = r.string(m.value, m.path) {
                    if d.hasPrefix("/") { s.frameCacheDirectory = d } else { r.fail(m.path, "expected an absolute path or null, found \"\(d)\"") }
                }
            }
            if let m = top.member("plymouth"), var o = r.object(m.value, m.path) {
                var listen = false
                var name = PlymouthRequest.socketName
                if let v = o.member("listen"), let b = r.bool(v.value, v.path) { listen = b }
                if let v = o.member("socket"), let text = r.string(v.value, v.path) {
                    if text.hasPrefix("/") && text.utf8.count < 100 { name = text }
                    else { r.fail(v.path, "expected an abstract socket name such as \"/org/freedesktop/plymouthd\" (starting with /, under 100 bytes), found \"\(text)\"") }
                }
                s.plymouthSocket = listen ? name : nil
                r.issues += o.unknownKeyIssues()
            }
            if let m = top.member("psplash"), var o = r.object(m.value, m.path) {
                if let v = o.member("fifo") {
                    if case .null = v.value { s.psplashFIFO = nil }
                    else if let path = r.string(v.value, v.path) {
                        if path.hasPrefix("/") { s.psplashFIFO = path }
                        else { r.fail(v.path, "expected an absolute path such as \"/run/psplash_fifo\", or null, found \"\(path)\"") }
                    }
                }
                r.issues += o.unknownKeyIssues()
            }
            if let m = top.member("shutdown") { s.shutdown = ShutdownSettings.read(m.value, m.path, &r) }
            if let m = top.member("prompts") { s.prompts = PromptSettings.read(m.value, m.path, &r) }
            if let m = top.member("logLevel"), let text = r.string(m.value, m.path) {
                if let level = LogLevel(name: text) { s.logLevel = level }
                else { r.fail(m.path, "unknown log level \"\(text)\": expected error, warning, notice, info or debug") }
            }
            r.issues += top.unknownKeyIssues()
        }
        return r.issues.isEmpty ? .success(s) : .failure(LayoutError(file: file, issues: r.issues))
    }
}
