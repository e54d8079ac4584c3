import SkeletonLayout

extension Canvas {
    /// Copies `rect` of `source` (the picture, at the turned size) into this canvas (the
    /// buffer, at its own size), turned by `rotation`. `rect` must lie inside `source`, and
    /// `source` turned must be this canvas's size. For quarter turns the copy goes by 32x32
    /// tiles, so that the rows read and the rows written both stay in the cache.
    public func copy(_ rect: PixelRect, from source: Canvas, turnedBy rotation: Rotation) {
        guard !rect.isEmpty else { return }
        let logical = Size(width: source.width, height: source.height)
        switch rotation {
        case .upright:
            copy(rect, from: source)
        case .upsideDown:
            for y in rect.y..<rect.maxY {
                let from = source.row(y)
                let to = row(logical.height - 1 - y)
                let last = logical.width - 1
                for x in rect.x..<rect.maxX { to[last - x] = from[x] }
            }
        case .clockwise90, .clockwise270:
            // Tile by tile; within a tile the buffer's rows are written left to right (they are
            // the picture's columns read top to bottom).
            let tile = 32
            let logicalRows = rect.y..<rect.maxY
            var tx = rect.x
            while tx < rect.maxX {
                let txEnd = min(tx + tile, rect.maxX)
                var ty = logicalRows.lowerBound
                while ty < logicalRows.upperBound {
                    let tyEnd = min(ty + tile, logicalRows.upperBound)
                    for x in tx..<txEnd {
                        if rotation == .clockwise90 {
                            // (x, y) goes to (height - 1 - y, x): buffer row x, from column height - 1 - y down.
                            let to = row(x) + (logical.height - 1)
                            var from = source.base + ty * source.stride + x
                            for y in ty..<tyEnd {
                                to[-y] = from.pointee
                                from += source.stride
                            }
                        } else {
                            // (x, y) goes to (y, width - 1 - x): buffer row width - 1 - x, from column y on.
                            let to = row(logical.width - 1 - x)
                            var from = source.base + ty * source.stride + x
                            for y in ty..<tyEnd {
                                to[y] = from.pointee
                                from += source.stride
                            }
                        }
                    }
                    ty = tyEnd
                }
                tx = txEnd
            }
        }
    }
}
