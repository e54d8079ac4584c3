/// An image node's picture: shown when the node is not a skeleton.
public struct PictureSpec: Sendable, Hashable {
    public var source: PictureSource
    public var contentMode: ContentMode

    public init(source: PictureSource, contentMode: ContentMode = .scaleAspectFit) {
        self.source = source
        self.contentMode = contentMode
    }
}
