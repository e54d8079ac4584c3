import SkeletonLayout
import SkeletonProtocol

/// The settings' `shutdown` object: the layout shown while the system goes down, and its
/// message for each way down.
public struct ShutdownSettings: Sendable, Equatable {
    /// Which layout the shutdown shows.
    public enum Layout: Sendable, Equatable {
        /// The start layout (`layouts.start`): what the machine showed while it came up.
        case start
        /// A layout by name or file.
        case named(String)
        /// None (`null`): the daemon lets the console show while the system goes down.
        case off
    }

    public var layout = Layout.start
    /// Texts for the message role, by mode; a mode not named here says `ShutdownMode.defaultMessage`.
    public var messages: [ShutdownMode: String] = [:]

    public init() {}

    public func message(for mode: ShutdownMode) -> String { messages[mode] ?? mode.defaultMessage }

    /// The layout to show, given the start layout; nil when the shutdown shows none.
    public func layoutName(start: String?) -> String? {
        switch layout {
        case .start: return start
        case .named(let name): return name
        case .off: return nil
        }
    }

    static func read(_ value: JSONValue, _ path: JSONPath, _ r: inout ValueReader) -> ShutdownSettings {
        var s = ShutdownSettings()
        guard var o = r.object(value, path) else { return s }
        if let v = o.member("layout") {
            if case .null = v.value { s.layout = .off }
            else if let name = r.string(v.value, v.path) {
                if name.isEmpty { r.fail(v.path, "expected a layout name or file, or null, found \"\"") } else { s.layout = .named(name) }
            }
        }
        if let v = o.member("messages"), var messages = r.object(v.value, v.path) {
            for mode in ShutdownMode.allCases {
                if let m = messages.member(mode.rawValue), let text = r.string(m.value, m.path) { s.messages[mode] = text }
            }
            r.issues += messages.unknownKeyIssues()
        }
        r.issues += o.unknownKeyIssues()
        return s
    }
}
