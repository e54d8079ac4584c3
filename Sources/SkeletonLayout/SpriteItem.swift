/// Content drawn from pixels made once per output (a picture, a text) and blended over what is
/// below. When the pixels cannot be made (a missing file, a font that does not load), the node
/// shows as the skeleton shape `fallback` instead, so the layout still shows.
public struct SpriteItem: Sendable, Hashable {
    /// The node's frame in output pixels: the box the content is laid out in.
    public var rect: Rect
    public var clip: Rect
    public var content: SpriteContent
    public var fallback: SkeletonShape
    /// The node's JSON path, for errors.
    public var nodePath: String

    public init(rect: Rect, clip: Rect, content: SpriteContent, fallback: SkeletonShape, nodePath: String) {
        self.rect = rect
        self.clip = clip
        self.content = content
        self.fallback = fallback
        self.nodePath = nodePath
    }
}
