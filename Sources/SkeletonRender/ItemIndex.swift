import SkeletonLayout

/// Which items a region touches, without testing every item: the output cut into square cells,
/// each listing the items whose bounds reach into it, in drawing order. A frame of many small
/// damage rectangles over thousands of shapes then costs what it touches, not rectangles times
/// shapes. Few items, or a region over much of the output, are simply scanned.
struct ItemIndex {
    private let bounds: [PixelRect]
    private let cellSize: Int
    private let columns: Int
    private let rows: Int
    /// Per cell (row-major), the indices of the items reaching into it, ascending.
    private let cells: [[Int32]]

    /// Below this many items a scan is as cheap as the index.
    private static let indexedFrom = 64

    init(bounds: [PixelRect], outputSize: Size) {
        self.bounds = bounds
        let width = max(1, outputSize.width), height = max(1, outputSize.height)
        guard bounds.count >= Self.indexedFrom else {
            (cellSize, columns, rows, cells) = (max(width, height), 1, 1, [])
            return
        }
        // About 4096 cells, none smaller than 32 pixels.
        var side = 32
        while (width + side - 1) / side * ((height + side - 1) / side) > 4096 { side *= 2 }
        cellSize = side
        columns = (width + side - 1) / side
        rows = (height + side - 1) / side
        var cells = [[Int32]](repeating: [], count: columns * rows)
        let output = PixelRect(x: 0, y: 0, width: width, height: height)
        for (index, b) in bounds.enumerated() {
            let r = b.intersection(output)
            guard !r.isEmpty else { continue }
            for row in r.y / side...(r.maxY - 1) / side {
                for column in r.x / side...(r.maxX - 1) / side { cells[row * columns + column].append(Int32(index)) }
            }
        }
        self.cells = cells
    }

    /// Calls `body` with each item whose bounds intersect `region`, in drawing order (ascending).
    func forEachItem(in region: PixelRect, _ body: (Int) -> Void) {
        guard !cells.isEmpty, !region.isEmpty else { return scan(region, body) }
        let c0 = max(0, region.x / cellSize), c1 = min(columns - 1, (region.maxX - 1) / cellSize)
        let r0 = max(0, region.y / cellSize), r1 = min(rows - 1, (region.maxY - 1) / cellSize)
        guard c0 <= c1, r0 <= r1 else { return }
        if c0 == c1 && r0 == r1 {
            for index in cells[r0 * columns + c0] where bounds[Int(index)].intersects(region) { body(Int(index)) }
            return
        }
        // A region over a quarter of the output or more: the scan reads less than the cells would.
        if (c1 - c0 + 1) * (r1 - r0 + 1) * 4 >= cells.count { return scan(region, body) }
        var found: [Int32] = []
        for row in r0...r1 {
            for column in c0...c1 { found += cells[row * columns + column] }
        }
        found.sort()
        var previous: Int32 = -1
        for index in found where index != previous {
            previous = index
            if bounds[Int(index)].intersects(region) { body(Int(index)) }
        }
    }

    private func scan(_ region: PixelRect, _ body: (Int) -> Void) {
        for index in bounds.indices where bounds[index].intersects(region) { body(index) }
    }
}
