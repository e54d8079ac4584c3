import SkeletonLayout

/// The coverage of a clipped, anti-aliased rounded rectangle, row by row: a run of pixels all
/// with the same coverage (fully covered, or cut only by a fractional top or bottom edge) and
/// the few edge pixels around it with their exact coverage. It depends only on geometry, so a
/// renderer computes it once per shape and reuses it every frame. A class: a frame passes
/// masks around by one reference, not by their seven arrays.
public final class CoverageMask: Sendable {
    /// Pixels the shape touches (not clipped to any canvas).
    public let bounds: PixelRect
    let runStart: [Int32]
    let runEnd: [Int32]
    let runCoverage: [UInt8]
    /// Edge pixels of row r are `edgeX[edgeOffset[r]..<edgeOffset[r + 1]]`, left to right.
    let edgeOffset: [Int32]
    let edgeX: [Int32]
    let edgeCoverage: [UInt8]
    /// For row r, the first row after it whose coverage differs from row r's: rows
    /// `r..<repeatsUntil[r]` are covered alike, so they can be drawn once and copied.
    let repeatsUntil: [Int32]

    public init(rect: Rect, radius: Double, clip: Rect) {
        var runStart: [Int32] = [], runEnd: [Int32] = [], runCoverage: [UInt8] = []
        var edgeOffset: [Int32] = [0], edgeX: [Int32] = [], edgeCoverage: [UInt8] = []
        let g = rect.intersection(clip)
        let bounds = g.isEmpty ? PixelRect(x: 0, y: 0, width: 0, height: 0) : PixelRect(enclosing: g)
        self.bounds = bounds
        guard !g.isEmpty else {
            (self.runStart, self.runEnd, self.runCoverage) = ([], [], [])
            (self.edgeOffset, self.edgeX, self.edgeCoverage, self.repeatsUntil) = ([0], [], [], [])
            return
        }
        let shape = RoundedRectCoverage(x0: rect.x, y0: rect.y, x1: rect.maxX, y1: rect.maxY, radius: radius)
        let r = shape.radius
        for j in bounds.y..<bounds.maxY {
            let ry0 = max(Double(j), g.y), ry1 = min(Double(j + 1), g.maxY)
            var inset = 0.0
            if r > 0 {
                // The arc's inset at the row's outermost covered edge bounds the fully covered run.
                if ry0 < shape.y0 + r {
                    let dy = shape.y0 + r - ry0
                    inset = r - max(0, r * r - dy * dy).squareRoot()
                }
                if ry1 > shape.y1 - r {
                    let dy = ry1 - (shape.y1 - r)
                    inset = max(inset, r - max(0, r * r - dy * dy).squareRoot())
                }
            }
            var full0 = min(max(Int(max(shape.x0 + inset, g.x).rounded(.up)), bounds.x), bounds.maxX)
            var full1 = min(max(Int(min(shape.x1 - inset, g.maxX).rounded(.down)), bounds.x), bounds.maxX)
            if full1 <= full0 { full0 = bounds.x; full1 = bounds.x }
            runStart.append(Int32(full0))
            runEnd.append(Int32(full1))
            runCoverage.append(UInt8(min(255, ((ry1 - ry0) * 255).rounded())))
            func appendEdge(_ i: Int) {
                let area = shape.area(max(Double(i), g.x), ry0, min(Double(i + 1), g.maxX), ry1)
                let coverage = UInt8(min(255, (area * 255).rounded()))
                if coverage > 0 {
                    edgeX.append(Int32(i))
                    edgeCoverage.append(coverage)
                }
            }
            // Only the pixels beside the run can be partly covered.
            for i in bounds.x..<full0 { appendEdge(i) }
            for i in full1..<bounds.maxX { appendEdge(i) }
            edgeOffset.append(Int32(edgeX.count))
        }
        /// Whether rows `r` and `s` (counted from the top of the bounds) have the same coverage.
        func rowsAlike(_ r: Int, _ s: Int) -> Bool {
            guard runStart[r] == runStart[s], runEnd[r] == runEnd[s], runCoverage[r] == runCoverage[s] else { return false }
            let edges = Int(edgeOffset[r])..<Int(edgeOffset[r + 1])
            let other = Int(edgeOffset[s])
            guard Int(edgeOffset[s + 1]) - other == edges.count else { return false }
            return edges.allSatisfy { e in
                edgeX[e] == edgeX[e - edges.lowerBound + other] && edgeCoverage[e] == edgeCoverage[e - edges.lowerBound + other]
            }
        }
        var repeatsUntil = [Int32](repeating: Int32(bounds.height), count: bounds.height)
        for row in stride(from: bounds.height - 2, through: 0, by: -1) {
            repeatsUntil[row] = rowsAlike(row, row + 1) ? repeatsUntil[row + 1] : Int32(row + 1)
        }
        (self.runStart, self.runEnd, self.runCoverage) = (runStart, runEnd, runCoverage)
        (self.edgeOffset, self.edgeX, self.edgeCoverage, self.repeatsUntil) = (edgeOffset, edgeX, edgeCoverage, repeatsUntil)
    }

    public var isEmpty: Bool { bounds.isEmpty }
}
