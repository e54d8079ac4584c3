import SkeletonLayout

/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var area: Int { isEmpty ? 0 : width * height }

    public func intersection(_ o: PixelRect) -> PixelRect {
        let l = max(x, o.x), t = max(y, o.y), r = min(maxX, o.maxX), b = min(maxY, o.maxY)
        return PixelRect(x: l, y: t, width: max(0, r - l), height: max(0, b - t))
    }

    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        let l = min(x, o.x), t = min(y, o.y), r = max(maxX, o.maxX), b = max(maxY, o.maxY)
        return PixelRect(x: l, y: t, width: r - l, height: b - t)
    }

    public func intersects(_ o: PixelRect) -> Bool {
        !isEmpty && !o.isEmpty && x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }

    public func contains(_ o: PixelRect) -> Bool {
        o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY
    }

    /// The parts of this rectangle outside `holes` (which do not overlap one another), as
    /// rectangles: bands between the holes' top and bottom edges, cut at their sides.
    public func subtracting(_ holes: [PixelRect]) -> [PixelRect] {
        let inside = holes.map { $0.intersection(self) }.filter { !$0.isEmpty }
        var edges = [y, maxY] + inside.flatMap { [$0.y, $0.maxY] }
        edges.sort()
        var parts: [PixelRect] = []
        var top = y
        for bottom in edges where bottom > top {
            var left = x
            for hole in inside.filter({ $0.y <= top && $0.maxY >= bottom }).sorted(by: { $0.x < $1.x }) {
                if hole.x > left { parts.append(PixelRect(x: left, y: top, width: hole.x - left, height: bottom - top)) }
                left = max(left, hole.maxX)
            }
            if maxX > left { parts.append(PixelRect(x: left, y: top, width: maxX - left, height: bottom - top)) }
            top = bottom
        }
        return parts
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

extension Rect {
    /// The pixels of `pixels`, as a rectangle in output coordinates.
    public init(_ pixels: PixelRect) {
        self.init(x: Double(pixels.x), y: Double(pixels.y), width: Double(pixels.width), height: Double(pixels.height))
    }
}
