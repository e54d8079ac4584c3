import SkeletonLayout

/// The settings' `display.wayland` object, for the Wayland backend: which compositor to be a
/// window of, and what follows when it goes away.
public struct WaylandSettings: Sendable, Equatable {
    /// The compositor's socket: a name under XDG_RUNTIME_DIR ("wayland-1") or a path; nil takes
    /// WAYLAND_DISPLAY.
    public var socket: String?
    public var whenGone = WhenDisplayServerGone.exit
    /// When another window maps over the skeleton's, map it again over that one (cage and
    /// weston's kiosk-shell show the newest window): the skeleton stays above the app until it
    /// is hidden or quits.
    public var stayOnTop = false

    public init() {}

    static func read(_ value: JSONValue, _ path: JSONPath, _ r: inout ValueReader) -> WaylandSettings {
        var s = WaylandSettings()
        guard var o = r.object(value, path) else { return s }
        if let v = o.member("socket") {
            if case .null = v.value { s.socket = nil }
            else if let text = r.string(v.value, v.path) {
                if text.isEmpty { r.fail(v.path, "expected a socket name such as \"wayland-1\", a path, or null, found \"\"") }
                else { s.socket = text }
            }
        }
        if let v = o.member("whenGone"), let w = r.enumeration(v.value, v.path, WhenDisplayServerGone.self) { s.whenGone = w }
        if let v = o.member("stayOnTop"), let b = r.bool(v.value, v.path) { s.stayOnTop = b }
        r.issues += o.unknownKeyIssues()
        return s
    }
}
