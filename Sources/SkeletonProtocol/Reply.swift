import SkeletonLayout

/// A reply line: `{"ok": true, ...}` or `{"ok": false, "error": {"code", "message"}}`, with the request's id.
public struct Reply: Sendable, Equatable {
    public var json: JSONValue

    public init(json: JSONValue) { self.json = json }

    public static func ok(id: JSONValue?, _ fields: [String: JSONValue] = [:]) -> Reply {
        var members = fields
        members["ok"] = .bool(true)
        if let id { members["id"] = id }
        return Reply(json: .object(members))
    }

    public static func error(id: JSONValue?, _ error: ProtocolError) -> Reply {
        var members: [String: JSONValue] = [
            "ok": .bool(false),
            "error": ["code": .string(error.code.rawValue), "message": .string(error.message)],
        ]
        if let id { members["id"] = id }
        return Reply(json: .object(members))
    }

    /// The reply as one line of JSON with its newline.
    public var line: [UInt8] { Array((json.jsonText + "\n").utf8) }

    public var isOK: Bool { json["ok"]?.boolValue == true }

    public var error: ProtocolError? {
        guard let e = json["error"], let code = e["code"]?.stringValue, let message = e["message"]?.stringValue else { return nil }
        return ProtocolError(ProtocolError.Code(rawValue: code) ?? .internalError, message)
    }
}
