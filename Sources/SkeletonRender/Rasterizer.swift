import SkeletonLayout

/// Fills anti-aliased rounded rectangles. Geometry is clipped once; each row then has a run of
/// fully covered pixels (filled by the paint's fast path) and a few edge pixels whose exact
/// coverage comes from `RoundedRectCoverage`.
public enum Rasterizer {
    /// Fills `rect` with corner `radius`, drawn only inside `clip` and inside the pixel `region`.
    public static func fillRoundedRect(_ canvas: Canvas, rect: Rect, radius: Double, clip: Rect, region: PixelRect,
                                       paint: ShapePaint) {
        let g = rect.intersection(clip)
        guard !g.isEmpty else { return }
        let pixels = PixelRect(x: Int(g.x.rounded(.down)), y: Int(g.y.rounded(.down)),
                               width: 0, height: 0)
        let bounds = PixelRect(x: pixels.x, y: pixels.y,
                               width: Int(g.maxX.rounded(.up)) - pixels.x, height: Int(g.maxY.rounded(.up)) - pixels.y)
            .intersection(region).intersection(canvas.bounds)
        guard !bounds.isEmpty else { return }
        let shape = RoundedRectCoverage(x0: rect.x, y0: rect.y, x1: rect.maxX, y1: rect.maxY, radius: radius)
        let r = shape.radius

        // A sweep along x has the same colours on every row: compute them once.
        var columnColors: [UInt32] = []
        let usesColumns = !paint.isSolid && paint.b == 0
        if usesColumns {
            columnColors = (bounds.x..<bounds.maxX).map { paint.color(x: $0, y: 0) }
        }
        let solidColor: UInt32? = paint.isSolid ? paint.color(at: paint.c) : nil

        columnColors.withUnsafeBufferPointer { lut in
            for j in bounds.y..<bounds.maxY {
                let ry0 = max(Double(j), g.y), ry1 = min(Double(j + 1), g.maxY)
                let fy = ry1 - ry0
                guard fy > 0 else { continue }
                var inset = 0.0
                if r > 0 {
                    if ry0 < shape.y0 + r {
                        let dy = shape.y0 + r - ry0
                        inset = r - max(0, r * r - dy * dy).squareRoot()
                    }
                    if ry1 > shape.y1 - r {
                        let dy = ry1 - (shape.y1 - r)
                        inset = max(inset, r - max(0, r * r - dy * dy).squareRoot())
                    }
                }
                var full0 = Int(max(shape.x0 + inset, g.x).rounded(.up))
                var full1 = Int(min(shape.x1 - inset, g.maxX).rounded(.down))
                full0 = min(max(full0, bounds.x), bounds.maxX)
                full1 = min(max(full1, bounds.x), bounds.maxX)
                if full1 < full0 { full0 = bounds.x; full1 = bounds.x }

                let row = canvas.row(j)
                let rowColor: UInt32? = solidColor ?? (paint.a == 0 ? paint.color(x: 0, y: j) : nil)
                let spanAlpha = fy >= 1 ? 255 : UInt32((fy * 255).rounded())

                if full1 > full0, spanAlpha > 0 {
                    if let color = rowColor {
                        fillSpan(row, from: full0, to: full1, color: color, coverage: spanAlpha)
                    } else if usesColumns {
                        copySpan(row, from: full0, to: full1, colors: lut.baseAddress! + (full0 - bounds.x),
                                 coverage: spanAlpha, opaque: paint.isOpaque)
                    } else {
                        for i in full0..<full1 { put(row, i, paint.color(x: i, y: j), spanAlpha) }
                    }
                }
                // Edge pixels: exact coverage of the pixel (cut by the clip) by the shape.
                var i = bounds.x
                while i < bounds.maxX {
                    if i == full0 && full1 > full0 { i = full1; continue }
                    let area = shape.area(max(Double(i), g.x), ry0, min(Double(i + 1), g.maxX), ry1)
                    let coverage = UInt32((area * 255).rounded())
                    if coverage > 0 {
                        let color = rowColor ?? (usesColumns ? lut[i - bounds.x] : paint.color(x: i, y: j))
                        put(row, i, color, coverage)
                    }
                    i += 1
                }
            }
        }
    }

    @inline(__always)
    private static func put(_ row: UnsafeMutablePointer<UInt32>, _ i: Int, _ argb: UInt32, _ coverage: UInt32) {
        let alpha = (argb >> 24) * coverage
        if alpha == 255 * 255 {
            row[i] = argb & 0xFFFFFF
        } else {
            row[i] = PixelMath.blend(under: row[i], over: argb & 0xFFFFFF, alpha: (alpha + 127) / 255)
        }
    }

    @inline(__always)
    private static func fillSpan(_ row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, color argb: UInt32, coverage: UInt32) {
        let alpha = ((argb >> 24) * coverage + 127) / 255
        if alpha >= 255 {
            (row + from).update(repeating: argb & 0xFFFFFF, count: to - from)
        } else if alpha > 0 {
            let rgb = argb & 0xFFFFFF
            for i in from..<to { row[i] = PixelMath.blend(under: row[i], over: rgb, alpha: alpha) }
        }
    }

    @inline(__always)
    private static func copySpan(_ row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, colors: UnsafePointer<UInt32>,
                                 coverage: UInt32, opaque: Bool) {
        if opaque && coverage == 255 {
            // Stops are opaque: the alpha byte is 0xFF, so mask while copying.
            let dst = row + from
            for k in 0..<(to - from) { dst[k] = colors[k] & 0xFFFFFF }
        } else {
            for k in 0..<(to - from) { put(row, from + k, colors[k], coverage) }
        }
    }
}
