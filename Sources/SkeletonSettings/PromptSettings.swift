import SkeletonLayout

/// The settings' `prompts` object: where systemd's password questions are read from, where
/// keyboards are found, and the keymap they are read with.
public struct PromptSettings: Sendable, Equatable {
    /// systemd's ask-password directory, watched while the skeleton shows; nil: not an agent.
    public var agentDirectory: String? = "/run/systemd/ask-password"
    /// Where evdev devices are (libinput's path backend adds them from here).
    public var inputDirectory = "/dev/input"
    /// LAYOUT[:VARIANT] or a compiled keymap's path; nil: /etc/default/keyboard's.
    public var keymap: String?

    public init() {}

    static func read(_ value: JSONValue, _ path: JSONPath, _ r: inout ValueReader) -> PromptSettings {
        var s = PromptSettings()
        guard var o = r.object(value, path) else { return s }
        if let v = o.member("agent") {
            if case .null = v.value { s.agentDirectory = nil }
            else if let text = r.string(v.value, v.path) {
                if text.hasPrefix("/") { s.agentDirectory = text }
                else { r.fail(v.path, "expected a directory such as \"/run/systemd/ask-password\", or null, found \"\(text)\"") }
            }
        }
        if let v = o.member("inputDevices"), let text = r.string(v.value, v.path) {
            if text.hasPrefix("/") { s.inputDirectory = text }
            else { r.fail(v.path, "expected a directory such as \"/dev/input\", found \"\(text)\"") }
        }
        if let v = o.member("keymap") {
            if case .null = v.value { s.keymap = nil }
            else if let text = r.string(v.value, v.path) {
                if text.isEmpty { r.fail(v.path, "expected a layout such as \"de\" or \"de:nodeadkeys\", a keymap file's path, or null, found \"\"") }
                else { s.keymap = text }
            }
        }
        r.issues += o.unknownKeyIssues()
        return s
    }
}
