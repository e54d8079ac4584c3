import SkeletonPrompt
import SkeletonSystem

/// Which keyboard layout a prompt reads keys with: XKB's rules, model, layout, variant and
/// options, as the console's configuration gives them (/etc/default/keyboard, written by the
/// Debian installer and `dpkg-reconfigure keyboard-configuration`), or a keymap compiled ahead
/// into a file (the initramfs carries one: no XKB data needed before the root is mounted).
public struct KeymapChoice: Sendable, Equatable, CustomStringConvertible {
    public var model = "pc105"
    public var layout = "us"
    public var variant = ""
    public var options = ""
    /// A keymap in XKB's text format; when set, the names above are not used.
    public var file: String?

    /// The console's configuration.
    public static let defaultKeyboardPath = "/etc/default/keyboard"

    public init(model: String = "pc105", layout: String = "us", variant: String = "", options: String = "", file: String? = nil) {
        self.model = model
        self.layout = layout
        self.variant = variant
        self.options = options
        self.file = file
    }

    public var description: String {
        if let file { return file }
        return layout + (variant.isEmpty ? "" : "(\(variant))") + (options.isEmpty ? "" : " [\(options)]")
    }

    /// `--keymap`: a path to a compiled keymap (it starts with "/"), or LAYOUT[:VARIANT]
    /// ("de", "de:nodeadkeys", "fr:oss"); nil when empty.
    public init?(option: String) {
        guard !option.isEmpty else { return nil }
        if option.hasPrefix("/") {
            file = option
            return
        }
        let parts = option.split(separator: ":", maxSplits: 1).map(String.init)
        layout = parts[0]
        variant = parts.count > 1 ? parts[1] : ""
    }

    /// The XKB* assignments of /etc/default/keyboard's shell syntax (quotes taken off); what it
    /// does not say keeps its default.
    public init(defaultKeyboard text: String) {
        for raw in text.split(separator: "\n") {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            var value = String(line[line.index(after: equals)...])
            if let hash = value.firstIndex(of: "#"), !value.hasPrefix("\"") { value = String(value[..<hash]) }
            value = value.trimmingWhitespace
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            switch key {
            case "XKBMODEL": model = value.isEmpty ? model : value
            case "XKBLAYOUT": layout = value.isEmpty ? layout : value
            case "XKBVARIANT": variant = value
            case "XKBOPTIONS": options = value
            default: continue
            }
        }
    }

    /// Where the initramfs hooks put the console's keymap compiled (`skeletond keymap`).
    public static let compiledPath = "/etc/skeletond/keymap.xkb"

    /// The compiled keymap where there is one (the initramfs), else the console's configuration.
    public static func compiledOrSystem() -> KeymapChoice {
        SystemCalls.fileExists(compiledPath) ? KeymapChoice(file: compiledPath) : system()
    }

    /// /etc/default/keyboard (under `root`), or US English when it cannot be read.
    public static func system(root: String = "") -> KeymapChoice {
        guard let bytes = SystemCalls.readFile(root + defaultKeyboardPath, limit: 64 * 1024) else { return KeymapChoice() }
        return KeymapChoice(defaultKeyboard: String(decoding: bytes, as: UTF8.self))
    }
}
