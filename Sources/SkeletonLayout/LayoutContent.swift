/// Content set by commands on top of a layout's own: label texts and progress values, by node
/// id. It is part of what is shown, not of the layout, so changing it redraws only the nodes
/// whose content changed.
public struct LayoutContent: Sendable, Hashable {
    public var texts: [String: String]
    public var values: [String: ProgressValue]

    public init(texts: [String: String] = [:], values: [String: ProgressValue] = [:]) {
        self.texts = texts
        self.values = values
    }

    public var isEmpty: Bool { texts.isEmpty && values.isEmpty }

    /// `other`'s entries over these.
    public func merging(_ other: LayoutContent) -> LayoutContent {
        LayoutContent(texts: texts.merging(other.texts) { $1 }, values: values.merging(other.values) { $1 })
    }

    /// `{"ID": {"text": ...} | {"value": ...}}`, as the protocol takes and `status` reports it.
    public var json: JSONValue {
        var members: [String: JSONValue] = [:]
        for (id, text) in texts { members[id] = ["text": .string(text)] }
        for (id, value) in values { members[id] = ["value": value.json] }
        return .object(members)
    }
}
