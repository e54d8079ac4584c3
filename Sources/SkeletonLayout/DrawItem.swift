/// A node's own background, drawn as ordinary content under or beside the skeletons.
public struct ContentFill: Sendable, Hashable {
    public var rect: Rect
    public var clip: Rect
    public var cornerRadius: Double
    public var color: Color
}

/// One skeleton shape in output pixels with the colours it is painted in.
public struct SkeletonShape: Sendable, Hashable {
    public var rect: Rect
    /// The shape is drawn only inside this rectangle (its node's frame within its ancestors).
    public var clip: Rect
    public var cornerRadius: Double
    /// The solid and pulse colour.
    public var tint: Color
    /// Gradient stops, evenly spaced, at least two.
    public var gradient: [Color]
    /// Seconds this shape's animation runs behind (node delay plus stagger).
    public var delay: Double

    public init(rect: Rect, clip: Rect, cornerRadius: Double, tint: Color, gradient: [Color], delay: Double) {
        self.rect = rect
        self.clip = clip
        self.cornerRadius = cornerRadius
        self.tint = tint
        self.gradient = gradient
        self.delay = delay
    }
}

/// What to draw, in painter's order.
public enum DrawItem: Sendable, Hashable {
    case content(ContentFill)
    case skeleton(SkeletonShape)
    /// A picture or a text, made into pixels once per output by a `SpriteSource`.
    case sprite(SpriteItem)
    case progress(ProgressItem)
}

/// A layout placed on an output: the debug tree and the draw list.
public struct ResolvedLayout: Sendable {
    public var outputSize: Size
    public var background: Color
    public var transform: ViewportTransform
    public var root: ResolvedNode
    public var items: [DrawItem]

    public var skeletonShapes: [SkeletonShape] {
        items.compactMap { if case .skeleton(let s) = $0 { return s } else { return nil } }
    }
}
