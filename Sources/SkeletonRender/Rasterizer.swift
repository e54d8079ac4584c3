/// Fills coverage masks with paints. Clipping to the region happens once per row; the
/// fully covered run then takes the paint's fast path (one colour per row, or a precomputed
/// row of column colours) and only the edge pixels blend. Rows covered alike (the straight
/// sides of a rounded rectangle) are drawn once and copied.
public enum Rasterizer {
    /// Paints `mask` inside `region`. With `background`, the pixels of the region on each row
    /// outside the fully covered run are first set to it, so the caller need not clear them.
    /// With `rowBuffer` (a row of the canvas's width; it needs `background`: every pixel of the
    /// region is then written), a row the canvas takes several times (rows covered alike) is
    /// drawn there once and copied, so the canvas is written only, never read (a dumb buffer may
    /// be write-combined memory); with the background laid, edges blend over it, not over the
    /// pixel read back. With
    /// `columns` (room for the region's width), a sweep's column colours are worked out there
    /// instead of in an array made for the call.
    public static func fill(_ mask: CoverageMask, canvas: Canvas, region: PixelRect, paint: ShapePaint,
                            background: UInt32? = nil, rowBuffer: UnsafeMutablePointer<UInt32>? = nil,
                            columns: UnsafeMutablePointer<UInt32>? = nil) {
        precondition(rowBuffer == nil || background != nil, "rows drawn aside are copied whole: the background must be laid")
        let clip = region.intersection(canvas.bounds)
        let area = mask.bounds.intersection(clip)
        guard !area.isEmpty else {
            if let background {
                canvas.fill(clip, with: background)
            }
            return
        }
        if let background {
            canvas.fill(PixelRect(x: clip.x, y: clip.y, width: clip.width, height: area.y - clip.y), with: background)
            canvas.fill(PixelRect(x: clip.x, y: area.maxY, width: clip.width, height: clip.maxY - area.maxY), with: background)
        }
        // A sweep along x has the same colours on every row: compute them once for the columns drawn.
        let usesColumns = paint.sweepsAlongX
        guard !usesColumns || columns != nil else {
            var colors = [UInt32](repeating: 0, count: area.width)
            colors.withUnsafeMutableBufferPointer { buffer in
                fill(mask, canvas: canvas, region: region, paint: paint, background: background, rowBuffer: rowBuffer,
                     columns: buffer.baseAddress!)
            }
            return
        }
        if usesColumns { paint.writeColumnColors(from: area.x, to: area.maxX, xrgb: paint.isOpaque, into: columns!) }
        let solidColor: UInt32? = paint.isSolid ? paint.color(at: paint.c) : nil
        // Opaque column colours are stored as XRGB; edge pixels put the alpha back.
        let lutAlpha: UInt32 = paint.isOpaque ? 0xFF00_0000 : 0

        let hasBackground = background != nil
        let backgroundPixel = background ?? 0
        // Under every pixel not in the run, and under the run when it blends, lies the background.
        let under = background
        let fastRun = paint.isOpaque
        let rowsRepeat = hasBackground && (paint.isSolid || paint.sweepsAlongX)
        let lut = UnsafePointer(columns)
        mask.runStart.withUnsafeBufferPointer { runStart in
        mask.runEnd.withUnsafeBufferPointer { runEnd in
        mask.runCoverage.withUnsafeBufferPointer { runCoverage in
        mask.edgeOffset.withUnsafeBufferPointer { edgeOffset in
        mask.edgeX.withUnsafeBufferPointer { edgeX in
        mask.edgeCoverage.withUnsafeBufferPointer { edgeCoverage in
        mask.repeatsUntil.withUnsafeBufferPointer { repeatsUntil in
            var j = area.y
            while j < area.maxY {
                let r = j - mask.bounds.y
                // With the background laid and a paint the same on every row, a row of the region
                // depends only on its coverage: the rows covered alike below it are copies of it.
                let next = rowsRepeat ? min(Int(repeatsUntil[r]) + mask.bounds.y, area.maxY) : j + 1
                // A row written once goes straight into the canvas; one written many times
                // is drawn aside first when the canvas is not to be read.
                let aside = next - j > 1 ? rowBuffer : nil
                let row = aside ?? canvas.row(j)
                let start = max(Int(runStart[r]), area.x), end = min(Int(runEnd[r]), area.maxX)
                let coverage = UInt32(runCoverage[r])
                if hasBackground {
                    if start < end && coverage == 255 && fastRun {
                        fillOpaque(row, from: clip.x, to: start, backgroundPixel)
                        fillOpaque(row, from: end, to: clip.maxX, backgroundPixel)
                    } else {
                        fillOpaque(row, from: clip.x, to: clip.maxX, backgroundPixel)
                    }
                }
                let rowColor: UInt32? = solidColor ?? (paint.a == 0 ? paint.color(x: 0, y: j) : nil)
                if start < end {
                    if let color = rowColor {
                        fillSpan(row, from: start, to: end, color: color, coverage: coverage, under: under)
                    } else if usesColumns {
                        copySpan(row, from: start, to: end, colors: lut! + (start - area.x),
                                 coverage: coverage, opaque: fastRun, under: under)
                    } else {
                        for i in start..<end { put(row, i, paint.color(x: i, y: j), coverage, under: under) }
                    }
                }
                for e in Int(edgeOffset[r])..<Int(edgeOffset[r + 1]) {
                    let i = Int(edgeX[e])
                    // A row's edge pixels run left to right (`CoverageMask`).
                    if i >= area.maxX { break }
                    guard i >= area.x else { continue }
                    let color = rowColor ?? (usesColumns ? lut![i - area.x] | lutAlpha : paint.color(x: i, y: j))
                    put(row, i, color, UInt32(edgeCoverage[e]), under: under)
                }
                for k in (aside == nil ? j + 1 : j)..<next {
                    (canvas.row(k) + clip.x).update(from: row + clip.x, count: clip.width)
                }
                j = next
            }
        }}}}}}}
    }

    @inline(__always)
    private static func fillOpaque(_ row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, _ pixel: UInt32) {
        if to > from { (row + from).update(repeating: pixel, count: to - from) }
    }

    // `under`: what the row holds there, when known (the background just laid): then the row
    // is written only, never read.

    @inline(__always)
    private static func put(_ row: UnsafeMutablePointer<UInt32>, _ i: Int, _ argb: UInt32, _ coverage: UInt32, under: UInt32?) {
        let alpha = (argb >> 24) * coverage
        if alpha == 255 * 255 {
            row[i] = argb & 0xFFFFFF
        } else {
            row[i] = PixelMath.blend(under: under ?? row[i], over: argb & 0xFFFFFF, alpha: (alpha + 127) / 255)
        }
    }

    @inline(__always)
    private static func fillSpan(_ row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, color argb: UInt32, coverage: UInt32,
                                 under: UInt32?) {
        let alpha = ((argb >> 24) * coverage + 127) / 255
        if alpha >= 255 {
            (row + from).update(repeating: argb & 0xFFFFFF, count: to - from)
        } else if let under, alpha > 0 {
            (row + from).update(repeating: PixelMath.blend(under: under, over: argb & 0xFFFFFF, alpha: alpha), count: to - from)
        } else if alpha > 0 {
            let rgb = argb & 0xFFFFFF
            for i in from..<to { row[i] = PixelMath.blend(under: row[i], over: rgb, alpha: alpha) }
        }
    }

    @inline(__always)
    private static func copySpan(_ row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, colors: UnsafePointer<UInt32>,
                                 coverage: UInt32, opaque: Bool, under: UInt32?) {
        if opaque && coverage == 255 {
            (row + from).update(from: colors, count: to - from)
        } else if opaque, let under {
            PixelMath.BlendOnto(under: under, alpha: coverage).run(colors, into: row + from, count: to - from)
        } else if opaque {
            for k in 0..<(to - from) { row[from + k] = PixelMath.blend(under: row[from + k], over: colors[k], alpha: coverage) }
        } else {
            for k in 0..<(to - from) { put(row, from + k, colors[k], coverage, under: under) }
        }
    }
}
