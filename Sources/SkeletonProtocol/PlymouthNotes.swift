import SkeletonLayout

/// What Plymouth's clients told the splash and a splash keeps: the boot mode, the status line,
/// the messages on screen and the system-update progress; `status` reports them.
public struct PlymouthNotes: Sendable, Equatable {
    /// The abstract socket the daemon answers on, "@/org/freedesktop/plymouthd".
    public var socket = ""
    /// `plymouth change-mode`: boot-up, shutdown, reboot, updates, system-upgrade, ...
    public var mode = "boot-up"
    /// `plymouth update --status=...`: the last status.
    public var status: String?
    /// `plymouth display-message --text=...`, without those `hide-message` took away; oldest first.
    public var messages: [String] = []
    /// `plymouth system-update --progress=N`, 0 to 100.
    public var progress: Int?
    public var progressPaused = false
    public var systemInitialized = false

    public static let messageLimit = 16

    public init(socket: String = "") { self.socket = socket }

    public mutating func show(message: String) {
        messages.removeAll { $0 == message }
        messages.append(message)
        if messages.count > Self.messageLimit { messages.removeFirst(messages.count - Self.messageLimit) }
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "socket": .string(socket), "mode": .string(mode), "messages": .array(messages.map(JSONValue.string)),
            "progressPaused": .bool(progressPaused), "systemInitialized": .bool(systemInitialized),
        ]
        if let status { fields["status"] = .string(status) }
        if let progress { fields["progress"] = .number(Double(progress)) }
        return .object(fields)
    }

    public init(json: JSONValue, path: JSONPath = .document) throws(StatusDecodingError) {
        var reader = try StatusReader(json, path: path)
        socket = try reader.string("socket")
        mode = try reader.string("mode")
        status = try reader.optionalString("status")
        messages = try reader.strings("messages")
        progress = try reader.optionalInteger("progress")
        progressPaused = try reader.bool("progressPaused")
        systemInitialized = try reader.bool("systemInitialized")
    }
}
