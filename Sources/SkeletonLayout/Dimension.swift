/// One component of a node's frame: design pixels, a share of the parent, or the rest of it.
public enum Dimension: Sendable, Hashable {
    case points(Double)
    case percent(Double)
    /// What is left from the node's origin to the parent's far edge (width and height only).
    case fill

    /// The value in design pixels for a parent extent and the node's origin on that axis.
    public func resolve(parentExtent: Double, origin: Double) -> Double {
        switch self {
        case .points(let v): return v
        case .percent(let p): return parentExtent * p / 100
        case .fill: return max(0, parentExtent - origin)
        }
    }
}

/// `[x, y, width, height]` in the parent's coordinates.
public struct FrameSpec: Sendable, Hashable {
    public var x: Dimension
    public var y: Dimension
    public var width: Dimension
    public var height: Dimension

    public init(x: Dimension, y: Dimension, width: Dimension, height: Dimension) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole parent: `[0, 0, "100%", "100%"]`.
    public static let fullParent = FrameSpec(x: .points(0), y: .points(0), width: .percent(100), height: .percent(100))

    public func resolve(in parent: Rect) -> Rect {
        let nx = x.resolve(parentExtent: parent.width, origin: 0)
        let ny = y.resolve(parentExtent: parent.height, origin: 0)
        return Rect(x: parent.x + nx, y: parent.y + ny,
                    width: width.resolve(parentExtent: parent.width, origin: nx),
                    height: height.resolve(parentExtent: parent.height, origin: ny))
    }
}

/// A number of repeated things (text lines, list rows, grid items), or as many as fit.
public enum RepeatCount: Sendable, Hashable {
    case count(Int)
    case auto
}

/// Insets from a node's edges, UIKit's order: top, left, bottom, right.
public struct EdgeInsets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()
}
