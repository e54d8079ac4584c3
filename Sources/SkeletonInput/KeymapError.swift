/// Why a keymap cannot be made: what was asked for and why (XKB's data missing, a layout
/// or variant XKB does not know, a compiled keymap that does not load).
public struct KeymapError: Error, Sendable, Equatable, CustomStringConvertible {
    public let keymap: String
    public let reason: String

    public init(keymap: String, reason: String) {
        self.keymap = keymap
        self.reason = reason
    }

    public var description: String { "keymap \(keymap): \(reason)" }
}
