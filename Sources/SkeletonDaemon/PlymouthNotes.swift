import SkeletonSettings
import SkeletonLayout

/// What Plymouth's clients told the splash and a splash keeps: the boot mode, the status line,
/// the messages on screen and the system-update progress. Reported by `status`; layouts that
/// show text and progress take them from here.
struct PlymouthNotes: Equatable {
    /// `plymouth change-mode`: boot-up, shutdown, reboot, updates, system-upgrade, ...
    var mode = "boot-up"
    /// `plymouth update --status=...`: the last status.
    var status: String?
    /// `plymouth display-message --text=...`, without those `hide-message` took away; oldest first.
    var messages: [String] = []
    /// `plymouth system-update --progress=N`, 0 to 100.
    var progress: Int?
    var progressPaused = false
    var systemInitialized = false
    /// `plymouth deactivate`: the display is let go until `reactivate`.
    var deactivated = false

    static let messageLimit = 16

    mutating func show(message: String) {
        messages.removeAll { $0 == message }
        messages.append(message)
        if messages.count > Self.messageLimit { messages.removeFirst(messages.count - Self.messageLimit) }
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "mode": .string(mode), "messages": .array(messages.map(JSONValue.string)), "progressPaused": .bool(progressPaused),
            "systemInitialized": .bool(systemInitialized), "deactivated": .bool(deactivated),
        ]
        if let status { fields["status"] = .string(status) }
        if let progress { fields["progress"] = .number(Double(progress)) }
        return .object(fields)
    }
}
