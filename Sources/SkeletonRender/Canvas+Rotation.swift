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
            // Tile by tile, so that the rows read and the rows written both stay in the cache;
            // within a tile, 4x4 blocks are turned in vector registers.
            let tile = 32
            var ty = rect.y
            while ty < rect.maxY {
                let tyEnd = min(ty + tile, rect.maxY)
                var tx = rect.x
                while tx < rect.maxX {
                    let txEnd = min(tx + tile, rect.maxX)
                    copyQuarterTurnTile(x: tx..<txEnd, y: ty..<tyEnd, from: source, clockwise: rotation == .clockwise90)
                    tx = txEnd
                }
                ty = tyEnd
            }
        }
    }

    /// One tile of a quarter turn: the picture's pixel (x, y) goes to the buffer's
    /// (height - 1 - y, x) turning clockwise, to (y, width - 1 - x) the other way (width and
    /// height the picture's). The caller keeps the tile inside both canvases, so the index
    /// arithmetic wraps instead of checking.
    @inline(__always)
    private func copyQuarterTurnTile(x columns: Range<Int>, y rows: Range<Int>, from source: Canvas, clockwise: Bool) {
        let pictureWidth = source.width, pictureHeight = source.height
        let sourceStride = source.stride, targetStride = stride
        let blockColumnsEnd = columns.lowerBound &+ (columns.count >> 2) << 2
        let blockRowsEnd = rows.lowerBound &+ (rows.count >> 2) << 2
        /// Where the picture's pixel (x, y) goes; the next x goes one buffer row further
        /// (clockwise) or back.
        @inline(__always) func target(_ x: Int, _ y: Int) -> UnsafeMutablePointer<UInt32> {
            clockwise ? base + (x &* targetStride &+ (pictureHeight &- 1 &- y))
                : base + ((pictureWidth &- 1 &- x) &* targetStride &+ y)
        }
        let nextColumn = clockwise ? targetStride : 0 &- targetStride
        var y = rows.lowerBound
        while y < blockRowsEnd {
            var from = UnsafeRawPointer(source.base + (y &* sourceStride &+ columns.lowerBound))
            // Column i of a 4x4 block becomes a run of four in buffer row i: the block's rows
            // y+3 ... y turning clockwise, y ... y+3 the other way.
            var to = target(columns.lowerBound, clockwise ? y &+ 3 : y)
            let rowBytes = sourceStride &* 4
            var x = columns.lowerBound
            while x < blockColumnsEnd {
                let r0 = from.loadUnaligned(as: SIMD4<UInt32>.self)
                let r1 = from.loadUnaligned(fromByteOffset: rowBytes, as: SIMD4<UInt32>.self)
                let r2 = from.loadUnaligned(fromByteOffset: rowBytes &* 2, as: SIMD4<UInt32>.self)
                let r3 = from.loadUnaligned(fromByteOffset: rowBytes &* 3, as: SIMD4<UInt32>.self)
                let (a, b, c, d) = clockwise ? (r3, r2, r1, r0) : (r0, r1, r2, r3)
                let ab = SIMD4(lowHalf: a.lowHalf, highHalf: b.lowHalf), cd = SIMD4(lowHalf: c.lowHalf, highHalf: d.lowHalf)
                let abHigh = SIMD4(lowHalf: a.highHalf, highHalf: b.highHalf), cdHigh = SIMD4(lowHalf: c.highHalf, highHalf: d.highHalf)
                UnsafeMutableRawPointer(to).storeBytes(of: SIMD4(lowHalf: ab.evenHalf, highHalf: cd.evenHalf), as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(to + nextColumn).storeBytes(of: SIMD4(lowHalf: ab.oddHalf, highHalf: cd.oddHalf), as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(to + nextColumn &* 2).storeBytes(of: SIMD4(lowHalf: abHigh.evenHalf, highHalf: cdHigh.evenHalf),
                                                                      as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(to + nextColumn &* 3).storeBytes(of: SIMD4(lowHalf: abHigh.oddHalf, highHalf: cdHigh.oddHalf),
                                                                      as: SIMD4<UInt32>.self)
                from += 16
                to += nextColumn &* 4
                x &+= 4
            }
            for x in blockColumnsEnd..<columns.upperBound {
                for k in 0..<4 { target(x, y &+ k).pointee = source.base[(y &+ k) &* sourceStride &+ x] }
            }
            y &+= 4
        }
        for y in blockRowsEnd..<rows.upperBound {
            for x in columns { target(x, y).pointee = source.base[y &* sourceStride &+ x] }
        }
    }
}
