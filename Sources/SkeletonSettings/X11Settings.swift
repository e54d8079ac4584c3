import SkeletonLayout

/// The settings' `display.x11` object, for the X11 backend: which X server to be a window of,
/// and what follows when it goes away.
public struct X11Settings: Sendable, Equatable {
    /// The X display (":0"); nil takes DISPLAY (else ":0").
    public var display: String?
    public var whenGone = WhenDisplayServerGone.exit
    /// Keep the skeleton's window above every other until it is hidden or quits: windows that
    /// map meanwhile are put under it (the browser recipe's window).
    public var stayOnTop = false

    public init() {}

    static func read(_ value: JSONValue, _ path: JSONPath, _ r: inout ValueReader) -> X11Settings {
        var s = X11Settings()
        guard var o = r.object(value, path) else { return s }
        if let v = o.member("display") {
            if case .null = v.value { s.display = nil }
            else if let text = r.string(v.value, v.path) {
                if text.isEmpty { r.fail(v.path, "expected an X display such as \":0\", or null, found \"\"") }
                else { s.display = text }
            }
        }
        if let v = o.member("whenGone"), let w = r.enumeration(v.value, v.path, WhenDisplayServerGone.self) { s.whenGone = w }
        if let v = o.member("stayOnTop"), let b = r.bool(v.value, v.path) { s.stayOnTop = b }
        r.issues += o.unknownKeyIssues()
        return s
    }
}
