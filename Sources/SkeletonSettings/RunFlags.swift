import SkeletonLayout
import SkeletonRender

/// The flags of `skeletond run`: each one overrides one setting of the settings file.
///
/// This type is their one parser: `parse` reads every flag's value and holds every rule on
/// it. ArgumentParser declares and documents the flags (`RunCommand`) and hands their texts
/// to `parse`; `init?(bootArguments:)` reads the plain command line the boot starts the
/// daemon with, without ArgumentParser, so that the boot path does not pay for its reflection
/// before the first frame. (`BootRecord.location` finds --config and --frame-cache on the C
/// strings before this runs; a test holds the two to the same answers.)
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

    /// Flags from their long names (without the dashes) and texts, as given: the flags, or the
    /// refusal of the first name that is not a flag or text that is not one of its values, with
    /// the text given.
    public static func parse(_ given: [(name: String, text: String)]) -> Result<RunFlags, RunFlagError> {
        var flags = RunFlags()
        for (name, text) in given {
            // The text given is named, as the command line's own refusals name it.
            guard let refusal = flags.set(name, text) else { continue }
            return .failure(longNames.contains(name) ? RunFlagError(refusal.description + ", not \"\(text)\"") : refusal)
        }
        return .success(flags)
    }

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
            guard !seen.contains(key), set(key, String(value)) == nil else { return nil }
            seen.append(key)
        }
    }

    /// Sets the flag `name` from `text`; its refusal when `text` is none of its values (or
    /// `name` no flag), and then nothing is set.
    private mutating func set(_ name: String, _ text: String) -> RunFlagError? {
        switch name {
        case "config": config = text
        case "socket": socket = text
        case "layouts": layouts = text
        case "layout": layout = text
        case "backend":
            guard let value = Backend(rawValue: text) else {
                return RunFlagError("--backend must be " + Self.alternatives(Backend.allCases.map(\.rawValue)))
            }
            backend = value
        case "device": device = text
        case "size":
            guard let value = Size(parsing: text) else { return RunFlagError("--size must be WxH such as 1280x720") }
            size = value
        case "snapshot": snapshot = text
        case "display-wait":
            guard let value = Double(text), Settings.displayWaitRange.contains(value) else {
                let range = Settings.displayWaitRange
                return RunFlagError("--display-wait must be from \(JSONValue.formatNumber(range.lowerBound)) to "
                                    + "\(JSONValue.formatNumber(range.upperBound)) seconds")
            }
            displayWait = value
        case "max-fps":
            guard let value = Int(text), Settings.maxFPSRange.contains(value) else {
                return RunFlagError("--max-fps must be from \(Settings.maxFPSRange.lowerBound) to \(Settings.maxFPSRange.upperBound)")
            }
            maxFPS = value
        case "rotation":
            guard let value = Int(text), Rotation(degrees: value) != nil else {
                return RunFlagError("--rotation must be " + Self.alternatives(Rotation.allCases.map { String($0.degrees) }))
            }
            rotation = value
        case "log-level":
            guard let value = LogLevel(name: text) else {
                return RunFlagError("--log-level must be " + Self.alternatives(LogLevel.allCases.map(\.name)))
            }
            logLevel = value
        case "frame-cache":
            guard !text.isEmpty else { return RunFlagError("--frame-cache must be a directory or none") }
            frameCache = text
        case "keymap":
            guard !text.isEmpty else {
                return RunFlagError("--keymap must be a layout such as de or de:nodeadkeys, or a keymap file's path")
            }
            keymap = text
        default: return RunFlagError("unknown flag --\(name)")
        }
        return nil
    }

    /// "a, b or c".
    private static func alternatives(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
