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
            let tile = 32
            var ty = rect.y
            while ty < rect.maxY {
                let tyEnd = min(ty + tile, rect.maxY)
                var tx = rect.x
                while tx < rect.maxX {
                    let txEnd = min(tx + tile, rect.maxX)
                    for y in ty..<tyEnd {
                        let from = source.row(y)
                        if rotation == .clockwise90 {
                            // (x, y) goes to (height - 1 - y, x).
                            let column = logical.height - 1 - y
                            for x in tx..<txEnd { row(x)[column] = from[x] }
                        } else {
                            // (x, y) goes to (y, width - 1 - x).
                            for x in tx..<txEnd { row(logical.width - 1 - x)[y] = from[x] }
                        }
                    }
                    tx = txEnd
                }
                ty = tyEnd
            }
        }
    }
}
