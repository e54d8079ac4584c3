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

    public func intersects(_ o: PixelRect) -> Bool { !intersection(o).isEmpty }

    public func contains(_ o: PixelRect) -> Bool {
        o.x >= x && o.y >= y && o.maxX <= maxX && o.maxY <= maxY
    }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// This rectangle without `r`: up to four pieces (the bands above and below it, then
    /// the pieces left and right of it), appended to `pieces`.
    public func subtract(_ r: PixelRect, into pieces: inout [PixelRect]) {
        let i = intersection(r)
        guard !i.isEmpty else {
            pieces.append(self)
            return
        }
        if i.y > y { pieces.append(PixelRect(x: x, y: y, width: width, height: i.y - y)) }
        if i.maxY < maxY { pieces.append(PixelRect(x: x, y: i.maxY, width: width, height: maxY - i.maxY)) }
        if i.x > x { pieces.append(PixelRect(x: x, y: i.y, width: i.x - x, height: i.height)) }
        if i.maxX < maxX { pieces.append(PixelRect(x: i.maxX, y: i.y, width: maxX - i.maxX, height: i.height)) }
    }

    /// The parts of `rects` outside every rectangle of `cover`, as few rectangles as
    /// `coalesce` makes of them.
    public static func uncovered(_ rects: [PixelRect], by cover: [PixelRect]) -> [PixelRect] {
        var pieces: [PixelRect] = [], next: [PixelRect] = []
        pieces.reserveCapacity(rects.count * 2)
        next.reserveCapacity(rects.count * 2)
        var left: [PixelRect] = []
        for rect in rects {
            pieces.removeAll(keepingCapacity: true)
            pieces.append(rect)
            for c in cover where c.intersects(rect) {
                next.removeAll(keepingCapacity: true)
                for piece in pieces { piece.subtract(c, into: &next) }
                swap(&pieces, &next)
                if pieces.isEmpty { break }
            }
            left.append(contentsOf: pieces)
        }
        return left.isEmpty ? left : coalesce(left)
    }
}
