import Testing
import SkeletonLayout
@testable import SkeletonRender

@Suite("Rasterizer: rows covered alike are drawn once and copied")
struct RowRepeatTests {
    @Test func straightSidesOfARoundedRectangleRepeat() {
        // Rows 3..<15; the corner arcs take four rows at the top and four at the bottom.
        let mask = CoverageMask(rect: Rect(x: 2, y: 3, width: 20, height: 12), radius: 4,
                                clip: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(mask.bounds == PixelRect(x: 2, y: 3, width: 20, height: 12))
        #expect(mask.repeatsUntil.map(Int.init) == [1, 2, 3, 4, 8, 8, 8, 8, 9, 10, 11, 12])
        // A rectangle on whole pixels: every row is like the first.
        let square = CoverageMask(rect: Rect(x: 0, y: 0, width: 5, height: 5), radius: 0, clip: Rect(x: 0, y: 0, width: 9, height: 9))
        #expect(square.repeatsUntil.map(Int.init) == [5, 5, 5, 5, 5])
        // Fractional top and bottom edges make those rows differ.
        let soft = CoverageMask(rect: Rect(x: 0.5, y: 0.5, width: 5, height: 4), radius: 0, clip: Rect(x: 0, y: 0, width: 9, height: 9))
        #expect(soft.repeatsUntil.map(Int.init) == [1, 4, 4, 4, 5])
    }

    /// A frame drawn whole, then again shape by shape (each shape then lays the background
    /// of its region, which lets its rows repeat), must equal the same frame drawn one row at a
    /// time, where no row can be a copy of another.
    func expectRowsMatch(_ json: String, overrides: PresentationOverrides, size: Size? = nil, times: [Double],
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let layout = try loadLayout(json, sourceLocation: sourceLocation)
        let whole = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let byRow = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let outputSize = whole.layout.outputSize
        let a = PixelBuffer(size: outputSize, fill: 0xFF00FF), b = PixelBuffer(size: outputSize, fill: 0x00FF00)
        for t in times {
            whole.renderFull(at: t, into: a.canvas)
            for item in whole.layout.items {
                switch item {
                case .skeleton(let shape): whole.draw(PixelRect(enclosing: shape.rect), at: t, into: a.canvas)
                case .content(let fill): whole.draw(PixelRect(enclosing: fill.rect), at: t, into: a.canvas)
                case .progress(let bar): whole.draw(PixelRect(enclosing: bar.rect), at: t, into: a.canvas)
                case .sprite(let sprite): whole.draw(PixelRect(enclosing: sprite.rect), at: t, into: a.canvas)
                }
            }
            for y in 0..<outputSize.height {
                byRow.draw(PixelRect(x: 0, y: y, width: outputSize.width, height: 1), at: t, into: b.canvas)
            }
            if let d = firstDifference(a, b) {
                Issue.record("at \(t) s, pixel (\(d.x), \(d.y)) drawn whole is \(hex(a[d.x, d.y])), row by row \(hex(b[d.x, d.y]))",
                             sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Test("equal to drawing row by row", arguments: [SkeletonStyle.solid, .gradient])
    func wholeEqualsRowByRow(style: SkeletonStyle) throws {
        for direction in [SlideDirection.leftRight, .topBottom, .topLeftBottomRight] {
            let overrides = PresentationOverrides(style: style, animated: true, direction: direction)
            try expectRowsMatch(DamageTests.scene, overrides: overrides, times: [0, 0.3, 0.74, 1.2])
            // Scaled: every edge fractional, so rows carry edge pixels too.
            try expectRowsMatch(DamageTests.scene, overrides: overrides, size: Size(width: 333, height: 207), times: [0.45, 1.1])
        }
        try expectRowsMatch(DamageTests.scene, overrides: PresentationOverrides(style: style, animated: false), times: [0])
    }

    @Test func translucentTintAndOverlappingShapes() throws {
        try expectRowsMatch(overlappingTranslucentScene, overrides: PresentationOverrides(), times: [0.2, 0.7, 1.3])
        try expectRowsMatch(overlappingTranslucentScene, overrides: PresentationOverrides(style: .solid), times: [0.2, 0.9])
    }

    @Test func aColumnsColourDoesNotDependOnWhereItsRegionStarts() {
        // Sliding bands over shapes of several widths, as the animator makes them, at many
        // progress values: a column drawn by a region starting anywhere left of it (the damage
        // of one frame) has the colour it has in a whole frame.
        let stops = [Color(rgb: 0xDDE1E2), Color(rgb: 0xF5F7F8), Color(rgb: 0xDDE1E2)]
        let table = GradientTable(stops: stops)
        var differences = 0
        for width in [333.0, 1920] {
            for step in 0..<8 {
                let paint = ShapePaint(stops: stops, a: 1 / width, b: 0, c: -17.25 / width + 1 - Double(step) / 4, table: table)
                let whole = paint.columnColors(from: 0, to: 2000, xrgb: true)
                for start in stride(from: 1, to: 2000, by: 19) {
                    let part = paint.columnColors(from: start, to: 2000, xrgb: true)
                    differences += part.indices.filter { part[$0] != whole[start + $0] }.count
                }
            }
        }
        #expect(differences == 0)
    }
}
