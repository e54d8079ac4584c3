/// One kernel uevent as the NETLINK_KOBJECT_UEVENT socket delivers it: a header
/// "ACTION@DEVPATH" and then "KEY=VALUE" lines, each ended by a NUL byte.
public struct Uevent: Sendable, Equatable {
    public var action: String
    public var devicePath: String
    public var properties: [String: String]

    public init(action: String, devicePath: String, properties: [String: String] = [:]) {
        self.action = action
        self.devicePath = devicePath
        self.properties = properties
    }

    /// Parses one message; nil when it has no "ACTION@DEVPATH" header (udev's own messages,
    /// which begin "libudev", have none).
    public init?(_ bytes: some Collection<UInt8>) {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
        guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
        action = String(header[..<at])
        devicePath = String(header[header.index(after: at)...])
        guard !action.isEmpty, devicePath.hasPrefix("/") else { return nil }
        properties = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            properties[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
    }

    public var subsystem: String? { properties["SUBSYSTEM"] }

    /// The event is about DRM card `card` ("card0"): the card itself (its device node is
    /// /dev/dri/`card`) or one of its connectors ("card0-HDMI-A-1").
    public func concernsCard(_ card: String) -> Bool {
        guard subsystem == "drm" else { return false }
        if properties["DEVNAME"] == "dri/\(card)" { return true }
        guard let last = devicePath.split(separator: "/").last else { return false }
        return last == card || last.hasPrefix("\(card)-")
    }

    /// The card itself went away (unbound, unplugged, its driver unloaded).
    public func removesCard(_ card: String) -> Bool {
        action == "remove" && concernsCard(card) && !(devicePath.split(separator: "/").last?.hasPrefix("\(card)-") ?? false)
    }
}
