/// What a rescan of a display's connectors changed: outputs added (connected, not shown yet)
/// and outputs removed (their monitor went away; their CRTC and buffers are given back).
/// An output whose preferred mode changed is in both: removed, and added again in the new mode.
public struct OutputChanges {
    public var added: [any DisplayOutput]
    public var removed: [any DisplayOutput]

    public init(added: [any DisplayOutput] = [], removed: [any DisplayOutput] = []) {
        self.added = added
        self.removed = removed
    }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}
