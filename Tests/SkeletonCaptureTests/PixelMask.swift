import SkeletonLayout

/// A page-sized bitmap; a rectangle covers the pixels between its edges rounded to the nearest
/// whole pixel (as a layout's frames are).
struct PixelMask {
    private(set) var bits: [Bool]
    let width: Int, height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bits = Array(repeating: false, count: width * height)
    }

    mutating func fill(_ r: Rect) { Self.indices(of: r, width: width, height: height).forEach { bits[$0] = true } }

    /// The pixels of `r`, as indices into `bits`.
    func indices(of r: Rect) -> [Int] { Self.indices(of: r, width: width, height: height) }

    var count: Int { bits.count { $0 } }

    private static func indices(of r: Rect, width: Int, height: Int) -> [Int] {
        let x0 = max(0, Int(r.x.rounded())), y0 = max(0, Int(r.y.rounded()))
        let x1 = min(width, Int(r.maxX.rounded())), y1 = min(height, Int(r.maxY.rounded()))
        guard x1 > x0, y1 > y0 else { return [] }
        return (y0..<y1).flatMap { y in (x0..<x1).map { y * width + $0 } }
    }
}
