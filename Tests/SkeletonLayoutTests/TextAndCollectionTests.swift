import Testing
@testable import SkeletonLayout

@Suite("Text bars")
struct TextBarTests {
    /// The bars of one text node placed at `frame` (JSON array text) with extra keys.
    func bars(_ frame: String, _ keys: String = "", appearance: String = "", canvas: String = #"{"width": 1000, "height": 500}"#,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> [Rect] {
        let node = #"{"kind": "text", "frame": \#(frame)\#(keys.isEmpty ? "" : ", " + keys)}"#
        let resolved = try resolve(layoutText(root: #"{"kind": "view", "children": [\#(node)]}"#, canvas: canvas,
                                              extra: appearance.isEmpty ? "" : #""appearance": \#(appearance)"#),
                                   sourceLocation: sourceLocation)
        let text = resolved.root.children[0]
        #expect(text.isSkeleton, sourceLocation: sourceLocation)
        #expect(resolved.shapeRects == text.bars, "every bar is a skeleton shape and nothing else is", sourceLocation: sourceLocation)
        return text.bars
    }

    @Test func autoLinesFillTheNodeCentredAsABlock() throws {
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto""#) == [
            .xywh(0, 5, 200, 15), .xywh(0, 30, 200, 15), .xywh(0, 55, 200, 15), .xywh(0, 80, 140, 15),
        ])
        #expect(try bars("[50, 20, 200, 100]", #""lines": "auto""#) == [
            .xywh(50, 25, 200, 15), .xywh(50, 50, 200, 15), .xywh(50, 75, 200, 15), .xywh(50, 100, 140, 15),
        ])
    }

    @Test("auto line count rounds halves away from zero", arguments: [
        (37.5, 2), (62.5, 3), (87.5, 4), (87.4, 3), (112.5, 5), (15, 1), (24.9, 1),
    ])
    func autoRounding(height: Double, count: Int) throws {
        let result = try bars("[0, 0, 300, \(height)]", #""lines": "auto""#)
        #expect(result.count == count)
        #expect(result.last?.width == 210)
        #expect(result.dropLast().allSatisfy { $0.width == 300 })
    }

    @Test func atLeastOneBarWhenOneLineHigh() throws {
        // 15 / (10 + 30) rounds to 0; SkeletonView would draw one full block, we draw one bar.
        #expect(try bars("[0, 0, 200, 15]", #""lines": "auto", "textLineHeight": 10, "textLineSpacing": 30"#) == [
            .xywh(0, 2.5, 140, 10),
        ])
        // Less than one line high: no bar at all.
        #expect(try bars("[0, 0, 200, 12]", #""lines": "auto""#) == [])
    }

    @Test func aDefaultTextIsOneBarAtSeventyPercent() throws {
        #expect(try bars("[0, 0, 300, 15]") == [.xywh(0, 0, 210, 15)])
        #expect(try bars("[0, 0, 300, 45]") == [.xywh(0, 15, 210, 15)])
    }

    @Test func numericLines() throws {
        #expect(try bars("[0, 0, 200, 100]", #""lines": 3"#) == [
            .xywh(0, 17.5, 200, 15), .xywh(0, 42.5, 200, 15), .xywh(0, 67.5, 140, 15),
        ])
        #expect(try bars("[0, 0, 200, 100]", #""lines": 3, "verticalAlignment": "top""#) == [
            .xywh(0, 0, 200, 15), .xywh(0, 25, 200, 15), .xywh(0, 50, 140, 15),
        ])
        // More lines than fit: exactly n bars all the same, clipped by the node when drawn.
        #expect(try bars("[0, 0, 200, 40]", #""lines": 5"#).count == 5)
    }

    @Test func lastLineFillPercent() throws {
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2, "lastLineFillPercent": 50"#).map(\.width) == [200, 100])
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2"#, appearance: #"{"lastLineFillPercent": 25}"#).map(\.width) == [200, 50])
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2, "lastLineFillPercent": 100"#).map(\.width) == [200, 200])
        #expect(try bars("[0, 0, 200, 15]", #""lastLineFillPercent": 150"#).map(\.width) == [200])
    }

    @Test func lastLineAlignment() throws {
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2, "lastLineAlignment": "center""#).map(\.x) == [0, 30])
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2, "lastLineAlignment": "right""#).map(\.x) == [0, 60])
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2, "lastLineAlignment": "natural""#).map(\.x) == [0, 0])
        #expect(try bars("[0, 0, 200, 40]", #""lines": 2, "lastLineAlignment": "natural""#,
                         canvas: #"{"width": 1000, "height": 500, "direction": "rtl"}"#).map(\.x) == [0, 60])
        #expect(try bars("[100, 0, 200, 15]", #""lastLineAlignment": "right""#) == [.xywh(160, 0, 140, 15)])
    }

    @Test func padding() throws {
        let padding = #""padding": {"top": 5, "left": 10, "bottom": 15, "right": 20}"#
        // Inner height 80: round(80 / 25) = 3 bars, block 65, centred: 5 + 7.5.
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", \#(padding)"#) == [
            .xywh(10, 12.5, 170, 15), .xywh(10, 37.5, 170, 15), .xywh(10, 62.5, 119, 15),
        ])
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", "lastLineAlignment": "center", \#(padding)"#).last == .xywh(35.5, 62.5, 119, 15))
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", "lastLineAlignment": "right", \#(padding)"#).last == .xywh(61, 62.5, 119, 15))
        #expect(try bars("[0, 0, 200, 100]", #""lines": 2, "verticalAlignment": "top", \#(padding)"#) == [
            .xywh(10, 5, 170, 15), .xywh(10, 30, 119, 15),
        ])
        #expect(try bars("[0, 0, 200, 60]", #""lines": 1, "padding": 10, "verticalAlignment": "top""#) == [.xywh(10, 10, 126, 15)])
    }

    /// Right to left, SkeletonView's padding insets swap left and right: the bars are the mirror
    /// image of the left-to-right ones.
    @Test func paddingRightToLeft() throws {
        let padding = #""padding": {"top": 5, "left": 10, "bottom": 15, "right": 20}"#
        let rtl = #"{"width": 1000, "height": 500, "direction": "rtl"}"#
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", "lastLineAlignment": "natural", \#(padding)"#, canvas: rtl) == [
            .xywh(20, 12.5, 170, 15), .xywh(20, 37.5, 170, 15), .xywh(71, 62.5, 119, 15),
        ])
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", "lastLineAlignment": "left", \#(padding)"#, canvas: rtl).last
                == .xywh(20, 62.5, 119, 15))
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", "lastLineAlignment": "center", \#(padding)"#, canvas: rtl).last
                == .xywh(45.5, 62.5, 119, 15))
        // The left inset of 30 is kept at the node's right edge (250): the bar ends at 220.
        #expect(try bars("[50, 0, 200, 60]", #""lines": 1, "padding": {"left": 30}, "verticalAlignment": "top", "lastLineAlignment": "natural""#,
                         canvas: rtl) == [.xywh(101, 0, 119, 15)])
    }

    @Test func lineMetricsFromAppearanceAndNode() throws {
        #expect(try bars("[0, 0, 200, 100]", #""lines": 2, "verticalAlignment": "top""#,
                         appearance: #"{"textLineHeight": 20, "textLineSpacing": 4}"#) == [.xywh(0, 0, 200, 20), .xywh(0, 24, 140, 20)])
        #expect(try bars("[0, 0, 200, 100]", #""lines": 2, "verticalAlignment": "top", "textLineHeight": 8, "textLineSpacing": 2"#)
            == [.xywh(0, 0, 200, 8), .xywh(0, 10, 140, 8)])
        // auto with the node's metrics: round(100 / 10) = 10 bars.
        #expect(try bars("[0, 0, 200, 100]", #""lines": "auto", "textLineHeight": 8, "textLineSpacing": 2"#).count == 10)
    }

    @Test func linesCornerRadius() throws {
        func radii(_ keys: String, appearance: String = "") throws -> [Double] {
            let resolved = try resolve(layoutText(root: #"{"kind": "view", "children": [{"kind": "text", "frame": [0, 0, 200, 40], "lines": 2\#(keys)}]}"#,
                                                  extra: appearance.isEmpty ? "" : #""appearance": \#(appearance)"#))
            return resolved.skeletonShapes.map(\.cornerRadius)
        }
        #expect(try radii("") == [0, 0])
        #expect(try radii(#", "linesCornerRadius": 5"#) == [5, 5])
        #expect(try radii(#", "linesCornerRadius": 20"#) == [7.5, 7.5])
        #expect(try radii("", appearance: #"{"linesCornerRadius": 3, "cornerRadius": 9}"#) == [3, 3])
    }
}

@Suite("Lists and grids")
struct CollectionTests {
    static let row = #"{"kind": "view", "children": [{"kind": "image", "frame": [0, 5, 50, 50]}, {"kind": "text", "frame": [60, 5, "fill", 50], "lines": 2}]}"#

    func list(_ keys: String, frame: String = "[0, 0, 300, 250]") throws -> ResolvedLayout {
        try resolve(layoutText(root: #"{"kind": "view", "children": [{"kind": "list", "frame": \#(frame), \#(keys)}]}"#))
    }

    @Test func autoRowsAreTheCeilingOfHeightOverRowHeight() throws {
        let resolved = try list(#""rowHeight": 60, "rows": "auto", "row": \#(Self.row)"#)
        let rows = resolved.root.children[0].children
        #expect(rows.map(\.frame) == [0, 60, 120, 180, 240].map { Rect.xywh(0, $0, 300, 60) })
        // Per row: the image, then the two bars of the text.
        let images = resolved.skeletonShapes.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        #expect(images.map(\.rect) == [5, 65, 125, 185, 245].map { Rect.xywh(0, $0, 50, 50) })
        // The last row is cut by the list's frame.
        #expect(images.last?.clip == .xywh(0, 245, 50, 5))
        #expect(resolved.skeletonShapes.count == 15)
        // rows defaults to auto.
        #expect(try list(#""rowHeight": 60, "row": \#(Self.row)"#).root.children[0].children.count == 5)
    }

    @Test("auto row counts", arguments: [(240.0, 4), (241.0, 5), (59.0, 1), (600.0, 10)])
    func autoRowCount(height: Double, rows: Int) throws {
        let resolved = try list(#""rowHeight": 60, "row": {"kind": "image"}"#, frame: "[0, 0, 300, \(height)]")
        #expect(resolved.root.children[0].children.count == rows)
    }

    @Test func fixedRowCount() throws {
        let resolved = try list(#""rowHeight": 60, "rows": 2, "row": \#(Self.row)"#, frame: "[10, 20, 300, 400]")
        #expect(resolved.root.children[0].children.map(\.frame) == [.xywh(10, 20, 300, 60), .xywh(10, 80, 300, 60)])
        #expect(resolved.skeletonShapes.count == 6)
        #expect(resolved.skeletonShapes[1].rect == .xywh(70, 30, 240, 15))
    }

    @Test func sectionsWithHeadersAndFooters() throws {
        let resolved = try list(#"""
            "rowHeight": 50, "row": {"kind": "image", "frame": [0, 0, "fill", 40]},
            "sections": [
              {"header": {"kind": "text", "lines": 1}, "headerHeight": 30, "rows": 2,
               "footer": {"kind": "view", "skeletonable": false, "background": "#FF0000"}, "footerHeight": 20},
              {"header": {"kind": "image", "frame": [0, 0, 100, "fill"]}, "rows": "auto"}
            ]
            """#, frame: "[0, 0, 300, 400]")
        let children = resolved.root.children[0].children
        #expect(children.map(\.kind) == [.text, .image, .image, .view, .image, .image, .image, .image, .image])
        #expect(children.map(\.frame) == [
            .xywh(0, 0, 300, 30), .xywh(0, 30, 300, 40), .xywh(0, 80, 300, 40), .xywh(0, 130, 300, 20),
            .xywh(0, 150, 100, 50),
            .xywh(0, 200, 300, 40), .xywh(0, 250, 300, 40), .xywh(0, 300, 300, 40), .xywh(0, 350, 300, 40),
        ])
        // The header text is one bar centred in its 30-high cell; the footer is content.
        #expect(children[0].bars == [.xywh(0, 7.5, 210, 15)])
        #expect(resolved.contentFills.map(\.rect) == [.xywh(0, 130, 300, 20)])
        #expect(!children[3].isSkeleton)
    }

    func grid(_ keys: String, frame: String = "[0, 0, 500, 340]", canvas: String = #"{"width": 1000, "height": 500}"#) throws -> ResolvedLayout {
        try resolve(layoutText(root: #"{"kind": "view", "children": [{"kind": "grid", "frame": \#(frame), \#(keys)}]}"#, canvas: canvas))
    }

    @Test func autoItemsFillBothAxes() throws {
        let resolved = try grid(#""itemSize": [100, 100], "spacing": [20, 20], "items": "auto", "cornerRadius": 12"#)
        var expected: [Rect] = []
        for y in [0.0, 120, 240] { for x in [0.0, 120, 240, 360] { expected.append(.xywh(x, y, 100, 100)) } }
        #expect(resolved.shapeRects == expected)
        #expect(resolved.skeletonShapes.allSatisfy { $0.cornerRadius == 12 })
        #expect(resolved.root.children[0].children.count == 12)
        // A tall narrow grid: 2 columns and 5 rows, not only the scrolling axis.
        #expect(try grid(#""itemSize": [100, 100]"#, frame: "[0, 0, 250, 500]").skeletonShapes.count == 10)
    }

    @Test func theDesignDocumentsGrid() throws {
        let resolved = try grid(#""itemSize": [220, 160], "spacing": [20, 20], "items": "auto", "cornerRadius": 12"#,
                                frame: #"[780, 96, "fill", "fill"]"#, canvas: #"{"width": 1280, "height": 720}"#)
        #expect(resolved.shapeRects == [
            .xywh(780, 96, 220, 160), .xywh(1020, 96, 220, 160),
            .xywh(780, 276, 220, 160), .xywh(1020, 276, 220, 160),
            .xywh(780, 456, 220, 160), .xywh(1020, 456, 220, 160),
        ])
    }

    @Test func fixedItemCountAndTemplate() throws {
        let resolved = try grid(#"""
            "itemSize": [100, 100], "spacing": 20, "items": 5,
            "item": {"kind": "view", "children": [{"kind": "image", "frame": [10, 10, 80, 80], "shape": "circle"}]}
            """#)
        #expect(resolved.shapeRects == [
            .xywh(10, 10, 80, 80), .xywh(130, 10, 80, 80), .xywh(250, 10, 80, 80), .xywh(370, 10, 80, 80),
            .xywh(10, 130, 80, 80),
        ])
        #expect(resolved.skeletonShapes.allSatisfy { $0.cornerRadius == 40 })
        // More items than rows fit: the ones below the frame are dropped.
        #expect(try grid(#""itemSize": [100, 100], "items": 100"#, frame: "[0, 0, 200, 250]").skeletonShapes.count == 6)
    }
}
