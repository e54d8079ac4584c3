/// Counts what a layout resolves to (nodes, shapes, and per node its text bars, list rows and
/// grid items) by arithmetic alone, placing nothing, and reports each of `LayoutLimits` it
/// goes beyond: a 238-byte grid of 268 million items is refused in microseconds. The counts
/// follow the resolver's rules through `RepeatCounts`; every instance of a template has the
/// same size, so a template is counted once and multiplied.
struct LayoutCensus {
    private(set) var issues: [LayoutIssue] = []
    /// The nodes tallied: each node as written once, a template once for all its instances. The
    /// census's work, which the counts it finds do not change.
    private(set) var talliedNodes = 0

    /// Nodes of the resolved tree and draw items, saturating at `Tally.ceiling`.
    struct Tally {
        var nodes: Double
        var shapes: Double

        /// Far above every limit, far below where Doubles lose whole numbers.
        static let ceiling = 1e15

        static func + (a: Tally, b: Tally) -> Tally {
            Tally(nodes: min(ceiling, a.nodes + b.nodes), shapes: min(ceiling, a.shapes + b.shapes))
        }

        /// Zero for no instances (NaN from an infinite frame counts as none).
        static func * (a: Tally, times: Double) -> Tally {
            guard times > 0 else { return Tally(nodes: 0, shapes: 0) }
            let n = min(times, ceiling)
            return Tally(nodes: min(ceiling, a.nodes * n), shapes: min(ceiling, a.shapes * n))
        }
    }

    /// The limits `layout` goes beyond, each at the path of the node at fault.
    static func issues(of layout: Layout) -> [LayoutIssue] { taken(of: layout).issues }

    /// The census of `layout`: the limits it goes beyond and the work that found them.
    static func taken(of layout: Layout) -> LayoutCensus {
        var census = LayoutCensus()
        let design = Rect(x: 0, y: 0, width: Double(layout.canvas.width), height: Double(layout.canvas.height))
        let total = census.tally(layout.root, in: design, text: LayoutResolver.TextMetrics(appearance: layout.appearance),
                                 skeletonAllowed: true)
        if total.nodes > Double(LayoutLimits.nodes) {
            census.exceeded(layout.root.path, "the layout resolves to \(describe(total.nodes)) nodes (template instances included)",
                            limit: "\(LayoutLimits.nodes) nodes per layout")
        }
        if total.shapes > Double(LayoutLimits.shapes) {
            census.exceeded(layout.root.path,
                            "the layout resolves to \(describe(total.shapes)) shapes (skeleton shapes, text bars and backgrounds)",
                            limit: "\(LayoutLimits.shapes) shapes per layout")
        }
        return census
    }

    private init() {}

    private mutating func tally(_ node: Node, in parent: Rect, text: LayoutResolver.TextMetrics, skeletonAllowed: Bool) -> Tally {
        talliedNodes += 1
        let frame = node.frame.resolve(in: parent)
        let metrics = text.overridden(by: node.appearance)
        let skeletonHere = skeletonAllowed && node.skeletonable
        var tally = Tally(nodes: 1, shapes: 0)
        if skeletonHere && node.hiddenWhenSkeletonActive { return tally }
        let hasSkeletonChildren = skeletonHere && node.children.contains { $0.skeletonable }
        let isLeaf = node.kind.isLeaf || (node.kind == .view && !hasSkeletonChildren)
        let drawsSkeleton = skeletonHere && isLeaf
        if !drawsSkeleton && node.background != nil { tally.shapes += 1 }
        if !drawsSkeleton && node.drawsContent { tally.shapes += 1 }
        switch node.kind {
        case .view:
            for child in node.children {
                tally = tally + self.tally(child, in: frame, text: metrics, skeletonAllowed: skeletonHere)
            }
        case .list:
            if let list = node.list { tally = tally + listTally(list, node: node, frame: frame, text: metrics, skeletonAllowed: skeletonHere) }
        case .grid:
            if let grid = node.grid { tally = tally + gridTally(grid, node: node, frame: frame, text: metrics, skeletonAllowed: skeletonHere) }
        case .text, .image, .label, .progress:
            break
        }
        if drawsSkeleton {
            if let bars = node.barSpec {
                let lines = RepeatCounts.textLines(bars, height: frame.height, lineHeight: metrics.lineHeight,
                                                   spacing: metrics.spacing)
                tally.shapes += within(LayoutLimits.textLinesPerNode, lines, at: node.path,
                                       "this text node resolves to \(Self.describe(lines)) lines",
                                       limit: "\(LayoutLimits.textLinesPerNode) lines per text node")
            } else {
                tally.shapes += 1
            }
        }
        return tally
    }

    /// Rows, headers and footers in the resolver's order; it stops placing at the limit, and so
    /// does the tally.
    private mutating func listTally(_ list: ListSpec, node: Node, frame: Rect, text: LayoutResolver.TextMetrics,
                                    skeletonAllowed: Bool) -> Tally {
        let row = tally(list.row, in: Rect(x: 0, y: 0, width: frame.width, height: list.rowHeight), text: text,
                        skeletonAllowed: skeletonAllowed)
        let limit = Double(LayoutLimits.rowsPerList)
        var total = Tally(nodes: 0, shapes: 0)
        var asked = 0.0
        var space = frame.height
        func add(_ instance: Tally, times: Double) {
            total = total + instance * min(times, limit - min(asked, limit))
            asked = min(Tally.ceiling, asked + times)
        }
        for section in list.sections {
            if let header = section.header, section.headerHeight > 0, space > 0 {
                add(tally(header, in: Rect(x: 0, y: 0, width: frame.width, height: section.headerHeight), text: text,
                          skeletonAllowed: skeletonAllowed), times: 1)
                space -= section.headerHeight
            }
            let rows = RepeatCounts.listRows(section.rows, space: space, rowHeight: list.rowHeight)
            add(row, times: rows)
            space -= rows * list.rowHeight
            if let footer = section.footer, section.footerHeight > 0, space > 0 {
                add(tally(footer, in: Rect(x: 0, y: 0, width: frame.width, height: section.footerHeight), text: text,
                          skeletonAllowed: skeletonAllowed), times: 1)
                space -= section.footerHeight
            }
        }
        _ = within(LayoutLimits.rowsPerList, asked, at: node.path,
                   "this list resolves to \(Self.describe(asked)) rows (section headers and footers included)",
                   limit: "\(LayoutLimits.rowsPerList) rows per list")
        return total
    }

    private mutating func gridTally(_ grid: GridSpec, node: Node, frame: Rect, text: LayoutResolver.TextMetrics,
                                    skeletonAllowed: Bool) -> Tally {
        let cell = Rect(x: 0, y: 0, width: grid.itemWidth, height: grid.itemHeight)
        let template = grid.item ?? Node(kind: .view, path: node.path + ".item")
        let item = tally(template, in: cell, text: text, skeletonAllowed: skeletonAllowed)
        let items = RepeatCounts.gridItems(grid, width: frame.width, height: frame.height)
        return item * within(LayoutLimits.itemsPerGrid, items, at: node.path, "this grid resolves to \(Self.describe(items)) items",
                             limit: "\(LayoutLimits.itemsPerGrid) items per grid")
    }

    /// `count` clamped to `limit`, with an issue when it was more (what the resolver places).
    private mutating func within(_ limit: Int, _ count: Double, at path: String, _ what: String, limit text: String) -> Double {
        guard count > Double(limit) else { return count > 0 ? count : 0 }
        exceeded(path, what, limit: text)
        return Double(limit)
    }

    private mutating func exceeded(_ path: String, _ what: String, limit: String) {
        issues.append(LayoutIssue(path: path, message: "\(what); the limit is \(limit)"))
    }

    /// A count for a message: exact while Doubles hold it, else a bound.
    private static func describe(_ count: Double) -> String {
        count < Tally.ceiling ? String(Int(count)) : "more than \(Int(Tally.ceiling))"
    }
}
