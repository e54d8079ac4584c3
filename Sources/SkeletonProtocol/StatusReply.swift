import SkeletonLayout

/// The `status` reply: written by the daemon and read by skeletonctl through this one type.
public struct StatusReply: Sendable, Equatable {
    public var state = SessionState.idle
    /// The last frame was left on screen by `hide --retain`.
    public var retained = false
    /// `deactivate` (or Plymouth's): the display is let go until `reactivate`.
    public var deactivated = false
    /// Started in the initramfs.
    public var initramfs = false
    /// After `shutdown`: how the system is going down; the skeleton stays until the power is off.
    public var goingDown: ShutdownMode?
    public var framesDrawn = 0
    public var framesLate = 0
    /// Animation frames not drawn because they would have shown the frame on screen again.
    public var framesRepeated = 0
    /// Frames per second over the last second, to a tenth.
    public var frameRate = 0.0
    /// Seconds since the daemon started, to a millisecond.
    public var uptime = 0.0
    public var clients = 0
    /// "drm", "fbdev", "memory", or "none" while there is no display.
    public var backend = "none"
    public var layout: String?
    /// The presentation and appearance in force, in a layout file's shapes.
    public var presentation: JSONValue?
    public var appearance: JSONValue?
    /// Every label's text and bar's value in force, by id.
    public var content: LayoutContent?
    public var problem: String?
    public var plymouth: PlymouthNotes?
    public var outputs: [OutputStatus] = []

    public init() {}

    public var fields: [String: JSONValue] {
        var f: [String: JSONValue] = [
            "state": .string(state.rawValue), "retained": .bool(retained), "deactivated": .bool(deactivated),
            "framesDrawn": .number(Double(framesDrawn)), "framesLate": .number(Double(framesLate)),
            "framesRepeated": .number(Double(framesRepeated)), "frameRate": .number(frameRate),
            "uptime": .number(uptime), "clients": .number(Double(clients)), "backend": .string(backend),
            "outputs": .array(outputs.map(\.json)),
        ]
        if initramfs { f["initramfs"] = true }
        if let goingDown { f["goingDown"] = .string(goingDown.rawValue) }
        if let layout { f["layout"] = .string(layout) }
        if let presentation { f["presentation"] = presentation }
        if let appearance { f["appearance"] = appearance }
        if let content { f["content"] = content.json }
        if let problem { f["problem"] = .string(problem) }
        if let plymouth { f["plymouth"] = plymouth.json }
        return f
    }

    /// A reply's fields read back; the field that is missing or wrong when they are not a status.
    public init(json: JSONValue) throws(StatusDecodingError) {
        var reader = try StatusReader(json, path: .document)
        guard let state = SessionState(rawValue: try reader.string("state")) else { throw StatusDecodingError("state: not a state") }
        self.state = state
        retained = try reader.bool("retained")
        deactivated = try reader.bool("deactivated")
        initramfs = try reader.optionalBool("initramfs") ?? false
        if let mode = try reader.optionalString("goingDown") {
            guard let known = ShutdownMode(rawValue: mode) else { throw StatusDecodingError("goingDown: not a shutdown mode: \"\(mode)\"") }
            goingDown = known
        }
        framesDrawn = try reader.integer("framesDrawn")
        framesLate = try reader.integer("framesLate")
        // Absent from a daemon older than the count (still running across an upgrade).
        framesRepeated = try reader.optionalInteger("framesRepeated") ?? 0
        frameRate = try reader.number("frameRate")
        uptime = try reader.number("uptime")
        clients = try reader.integer("clients")
        backend = try reader.string("backend")
        layout = try reader.optionalString("layout")
        presentation = reader.value("presentation")
        appearance = reader.value("appearance")
        if let c = reader.value("content") {
            var values = ValueReader()
            content = LayoutContent.read(c, .document.key("content"), &values)
            if let issue = values.issues.first { throw StatusDecodingError("\(issue.path): \(issue.message)") }
        }
        problem = try reader.optionalString("problem")
        plymouth = try reader.value("plymouth").map { (p) throws(StatusDecodingError) in try PlymouthNotes(json: p, path: JSONPath.document.key("plymouth")) }
        guard case .array(let list)? = reader.value("outputs") else { throw StatusDecodingError("outputs: expected an array") }
        outputs = try list.enumerated().map { (o) throws(StatusDecodingError) in
            try OutputStatus(json: o.element, path: JSONPath.document.key("outputs").index(o.offset))
        }
    }
}
