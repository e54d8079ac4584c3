import SkeletonLayout

/// The one item a `list` or `grid` repeats, made from a run of repeated siblings: the first
/// item's leaves, relative to the item, each standing for the same leaf of every item. Pictures
/// and boxes are the same size in every item (`Repetition.alike`) and take their union. A text's
/// lines differ in length from item to item (titles, last lines): each line of the template is
/// as long as the median of that line in the items, never less than half the longest (so that
/// every item's line is at least half covered), from the edge the items' lines share (their
/// start, their end, or their middle).
enum RunTemplate {
    /// How far the template may be from the items, over all items: the area it draws off their
    /// leaves plus the area of their leaves it leaves bare, as a share of what they show. 5 %, as
    /// the capture's IoU of 0.95: beyond it the items are not the same shape (texts of very
    /// different lengths) and each stays itself.
    static let mismatchAllowed = 0.05

    /// The template of `run`, nil when it is further from the items than `mismatchAllowed` or
    /// leaves a box of an item less than half covered.
    static func of(_ run: [ScannedElement]) -> [ScannedElement]? {
        let items = run.map { item in item.leaves.map { $0.moved(by: -item.rect.x.rounded(), -item.rect.y.rounded()) } }
        var template = items[0]
        for index in template.indices {
            let same = items.compactMap { index < $0.count ? $0[index] : nil }
            if template[index].kind == .text && !template[index].lines.isEmpty {
                template[index].lines = typicalLines(same.map(\.lines))
                template[index].rect = template[index].textRect
            } else {
                template[index] = same.dropFirst().reduce(template[index]) { $0.covering($1) }
            }
        }
        var shown = 0.0, mismatch = 0.0
        for item in items {
            for (drawn, leaf) in zip(template, item) {
                for (shape, box) in zip(drawn.boxes, leaf.boxes) {
                    let covered = shape.intersection(box).area
                    guard covered * 2 >= box.area else { return nil }
                    shown += box.area
                    mismatch += shape.area + box.area - 2 * covered
                }
            }
        }
        return mismatch <= mismatchAllowed * shown ? template : nil
    }

    /// A text's lines for the items' lines (`Repetition.alike`: as many in each), as a text node
    /// draws them: every line but the last as wide as the text, the last as long as it is.
    private static func typicalLines(_ texts: [[Rect]]) -> [Rect] {
        let count = texts[0].count
        let last = typicalSpan(texts.map { $0[count - 1] })
        let full = count > 1 ? typicalSpan(texts.flatMap { $0.dropLast() }) : last
        let left = min(full.x, last.x), right = max(full.x + full.width, last.x + last.width)
        return (0..<count).map { line in
            let top = texts.map { $0[line].y }.min()!, bottom = texts.map { $0[line].maxY }.max()!
            let span = line == count - 1 ? last : (x: left, width: right - left)
            return Rect(x: span.x, y: top, width: span.width, height: bottom - top)
        }
    }

    /// Where one line stands for these: the median length (at least half the longest), from the
    /// edge they share (their start, their end, or else their middle).
    private static func typicalSpan(_ lines: [Rect]) -> (x: Double, width: Double) {
        let widths = lines.map(\.width).sorted()
        let width = max(widths[widths.count / 2], widths[widths.count - 1] / 2)
        let lefts = lines.map(\.x), rights = lines.map(\.maxX)
        if lefts.max()! - lefts.min()! <= Repetition.tolerance { return (lefts.min()!, width) }
        if rights.max()! - rights.min()! <= Repetition.tolerance { return (rights.max()! - width, width) }
        let middles = lines.map { $0.x + $0.width / 2 }.sorted()
        return (middles[middles.count / 2] - width / 2, width)
    }
}

extension ScannedElement {
    /// The boxes a leaf shows: a text's lines, else its box.
    var boxes: [Rect] { kind == .text && !lines.isEmpty ? lines : [rect] }
}

extension Rect {
    var area: Double { width * height }
}
