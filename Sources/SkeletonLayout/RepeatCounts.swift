/// How many text bars, list rows and grid items a node resolves to, worked out without placing
/// anything, so that the resolver and the load-time census cannot disagree. Counts are Doubles:
/// a frame may be 1e300 high, and `clamped` turns them into Ints no larger than a limit.
enum RepeatCounts {
    /// Bars of a text node whose height is `height` (behaviour reference, section 5).
    static func textLines(_ spec: TextSpec, height: Double, lineHeight: Double, spacing: Double) -> Double {
        let inner = height - spec.padding.top - spec.padding.bottom
        switch spec.lines {
        case .count(let n): return Double(n)
        case .auto:
            guard inner >= lineHeight else { return 0 }
            return max(1, (inner / (lineHeight + spacing)).rounded(.toNearestOrAwayFromZero))
        }
    }

    /// Rows placed from `space` pixels above the list's bottom edge: as many as asked for
    /// (all that start inside for `auto`), but none that would start at or past the edge.
    static func listRows(_ rows: RepeatCount, space: Double, rowHeight: Double) -> Double {
        let fitting = space > 0 ? (space / rowHeight).rounded(.up) : 0
        switch rows {
        case .count(let n): return min(Double(n), fitting)
        case .auto: return fitting
        }
    }

    /// Columns of a grid in a frame `width` wide (at least one).
    static func gridColumns(_ grid: GridSpec, width: Double) -> Double {
        max(1, ((width + grid.spacingX) / (grid.itemWidth + grid.spacingX)).rounded(.down))
    }

    /// Items of a grid placed in `frame`: as many as asked for (`auto`: the rows that fit
    /// whole, at least one), but none in a row that starts at or past the bottom edge.
    static func gridItems(_ grid: GridSpec, width: Double, height: Double) -> Double {
        let columns = gridColumns(grid, width: width)
        let stepY = grid.itemHeight + grid.spacingY
        let startingRows = height > 0 ? (height / stepY).rounded(.up) : 0
        let asked: Double
        switch grid.items {
        case .count(let n): asked = Double(n)
        case .auto: asked = columns * max(1, ((height + grid.spacingY) / stepY).rounded(.down))
        }
        return min(asked, columns * startingRows)
    }

    /// `count` as an Int from 0 to `limit` (NaN, from infinite frames, counts as 0).
    static func clamped(_ count: Double, to limit: Int) -> Int {
        guard count > 0 else { return 0 }
        return count >= Double(limit) ? limit : Int(count)
    }
}
