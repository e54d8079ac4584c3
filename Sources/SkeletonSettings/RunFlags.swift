import SkeletonLayout
import SkeletonRender

/// The flags of `skeletond run`: each one overrides one setting of the settings file.
///
/// ArgumentParser defines and documents them (`RunCommand`); `init?(bootArguments:)` reads
/// their plain forms directly so that the boot path does not pay for ArgumentParser's
/// reflection before the first frame.
public struct RunFlags: Sendable, Equatable {
    public var config: String?
    public var socket: String?
    public var layouts: String?
    /// A layout name or file; "none" shows nothing at start.
    public var layout: String?
    public var backend: Backend?
    public var device: String?
    public var size: Size?
    public var snapshot: String?
    public var displayWait: Double?
    public var maxFPS: Int?
    /// Degrees: 0, 90, 180 or 270, for every output.
    public var rotation: Int?
    public var logLevel: LogLevel?
    /// A directory for the frame cache; "none" turns it off.
    public var frameCache: String?
    /// The prompts' keymap: LAYOUT[:VARIANT] or a compiled keymap's path.
    public var keymap: String?

    public init() {}

    /// The settings file to read: the flag, else the default one (which may be missing).
    public var configPath: String { config ?? Settings.defaultPath }

    /// The settings file with these flags on top (applied again on every reload).
    public var settingsSource: SettingsSource {
        let flags = self
        return SettingsSource(path: configPath, pathIsDefault: config == nil) { flags.apply(to: &$0) }
    }

    /// What ArgumentParser's validation reports for these values, if anything.
    public var problem: String? {
        if let maxFPS, !(1...240).contains(maxFPS) { return "--max-fps must be from 1 to 240" }
        if let rotation, Rotation(degrees: rotation) == nil { return "--rotation must be 0, 90, 180 or 270" }
        if let displayWait, !(0...600).contains(displayWait) { return "--display-wait must be from 0 to 600 seconds" }
        if frameCache == "" { return "--frame-cache must be a directory or none" }
        if keymap == "" { return "--keymap must be a layout such as de or de:nodeadkeys, or a keymap file's path" }
        return nil
    }

    public func apply(to s: inout Settings) {
        if let socket { s.socketPath = socket }
        if let layouts { s.layoutsDirectory = layouts }
        if let layout { s.startLayout = layout == "none" ? nil : layout }
        if let backend { s.backend = backend }
        if let device { s.device = device }
        if let size { s.memorySize = size }
        if let snapshot { s.snapshotPath = snapshot }
        if let maxFPS { s.maxFPS = maxFPS }
        if let rotation = rotation.flatMap(Rotation.init(degrees:)) {
            s.rotation = rotation
            s.rotations = [:]
        }
        if let displayWait { s.displayWaitSeconds = displayWait }
        if let logLevel { s.logLevel = logLevel }
        if let frameCache { s.frameCacheDirectory = frameCache == "none" ? nil : frameCache }
        if let keymap { s.prompts.keymap = keymap }
    }

    /// The long names of every flag, without the dashes.
    public static let longNames = ["config", "socket", "layouts", "layout", "backend", "device", "size", "snapshot",
                                   "display-wait", "max-fps", "rotation", "log-level", "frame-cache", "keymap"]

    /// `run` followed by `--name value` or `--name=value` pairs, each flag at most once, every
    /// value valid; nil for anything else (help, an unknown or repeated flag, a missing or bad
    /// value), which ArgumentParser then parses and reports. Concrete types and a plain switch
    /// keep the code this runs small: at boot every first-run instruction is costly.
    public init?(bootArguments arguments: [String]) {
        guard arguments.first == "run" else { return nil }
        self.init()
        var seen: [String] = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.utf8.starts(with: "--".utf8) else { return nil }
            var name = Substring(argument.utf8.dropFirst(2))
            let value: Substring
            if let equals = name.utf8.firstIndex(of: UInt8(ascii: "=")) {
                value = name[name.utf8.index(after: equals)...]
                name = name[..<equals]
            } else {
                guard index < arguments.count, !arguments[index].utf8.starts(with: "-".utf8) else { return nil }
                value = Substring(arguments[index])
                index += 1
            }
            let key = String(name)
            guard !seen.contains(key), set(key, String(value)) else { return nil }
            seen.append(key)
        }
        if problem != nil { return nil }
    }

    private mutating func set(_ name: String, _ value: String) -> Bool {
        switch name {
        case "config": config = value
        case "socket": socket = value
        case "layouts": layouts = value
        case "layout": layout = value
        case "backend": backend = Backend(rawValue: value); return backend != nil
        case "device": device = value
        case "size": size = Size(parsing: value); return size != nil
        case "snapshot": snapshot = value
        case "display-wait": displayWait = Double(value); return displayWait != nil
        case "max-fps": maxFPS = Int(value); return maxFPS != nil
        case "rotation": rotation = Int(value); return rotation.flatMap(Rotation.init(degrees:)) != nil
        case "log-level": logLevel = LogLevel(name: value); return logLevel != nil
        case "frame-cache": frameCache = value
        case "keymap": keymap = value
        default: return false
        }
        return true
    }
}
