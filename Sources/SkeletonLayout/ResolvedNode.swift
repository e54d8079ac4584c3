/// A node placed in output pixels, as `skeletond tree` prints it (SkeletonView's debug description).
public struct ResolvedNode: Sendable, Hashable {
    public var kind: NodeKind
    public var id: String?
    public var skeletonable: Bool
    /// True when the node is drawn as a skeleton shape (a skeletonable leaf under skeletonable ancestors).
    public var isSkeleton: Bool
    public var hidden: Bool
    public var frame: Rect
    /// Text bars, in output pixels, for text nodes drawn as skeletons.
    public var bars: [Rect]
    public var children: [ResolvedNode]
    /// A label's text in force (the layout's, or a command's).
    public var text: String?
    /// A progress bar's value in force.
    public var value: ProgressValue?

    /// The frame of the node with `id` in this subtree, depth first.
    public func frame(ofNodeWithID id: String) -> Rect? {
        if self.id == id { return frame }
        for child in children { if let found = child.frame(ofNodeWithID: id) { return found } }
        return nil
    }

    /// The tree as JSON: kind, id, skeletonable, frame, children (plus skeleton, hidden and lines where they apply).
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(kind.rawValue),
            "skeletonable": .bool(skeletonable),
            "skeleton": .bool(isSkeleton),
            "frame": .array([frame.x, frame.y, frame.width, frame.height].map { .number(($0 * 1000).rounded() / 1000) }),
            "children": .array(children.map(\.json)),
        ]
        if let id { members["id"] = .string(id) }
        if hidden { members["hidden"] = .bool(true) }
        if (kind == .text || kind == .label) && isSkeleton { members["lines"] = .number(Double(bars.count)) }
        if let text { members["text"] = .string(text) }
        if let value { members["value"] = value.json }
        return .object(members)
    }
}
