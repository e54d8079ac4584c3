import Foundation
import Testing
@testable import SkeletonLayout

/// What a layout may resolve to (`LayoutLimits`): refused at load, before anything is placed,
/// with the path and the limit; and never exceeded by the resolver whatever it is given.
@Suite("Resolution limits")
struct LimitTests {
    /// The issues of a layout that must be refused, and how many nodes the census that refused
    /// it tallied. The loader's refusal must be the census's, which comes before anything is
    /// placed: loading without the census took seconds and gigabytes for some of these.
    func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> (issues: [LayoutIssue], talliedNodes: Int) {
        let issues = loadIssues(text, sourceLocation: sourceLocation)
        var decoder = LayoutDecoder()
        guard let document = try? JSONValue.parse(Array(text.utf8)), let layout = decoder.decodeLayout(document, defaultName: "test") else {
            Issue.record("the layout does not decode: \(decoder.issues)", sourceLocation: sourceLocation)
            return (issues, 0)
        }
        let census = LayoutCensus.taken(of: layout)
        #expect(census.issues == issues, "refused by the census", sourceLocation: sourceLocation)
        return (issues, census.talliedNodes)
    }

    /// A layout file is read, parsed and checked on the daemon's loop: one over 1 MiB is refused
    /// unread, however valid; one of exactly 1 MiB is read.
    @Test func aLayoutFileOverOneMebibyteIsRefusedUnread() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString.prefix(8)).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let valid = layoutText(root: #"{"kind": "view"}"#)
        let padded = { (size: Int) in valid + String(repeating: " ", count: size - valid.utf8.count) }
        try padded(LayoutLimits.fileBytes).write(toFile: path, atomically: true, encoding: .utf8)
        guard case .success = LayoutLoader.load(path: path) else { Issue.record("1 MiB is allowed"); return }
        try padded(LayoutLimits.fileBytes + 1).write(toFile: path, atomically: true, encoding: .utf8)
        guard case .failure(let error) = LayoutLoader.load(path: path) else { Issue.record("refused"); return }
        #expect(error.lines == ["\(path): cannot read the file: it is 1048577 bytes, more than the 1 MiB a file may have"])
    }

    @Test func aGridOfOnePixelItemsOnTheLargestCanvas() {
        let (issues, talliedNodes) = refusal(layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "grid", "itemSize": [1, 1], "items": "auto"}]}
            """#, canvas: #"{"width": 16384, "height": 16384}"#))
        #expect(issues == [LayoutIssue(path: "root.children[0]",
                                       message: "this grid resolves to 268435456 items; the limit is 4096 items per grid")])
        #expect(talliedNodes == 3, "the view, the grid and its item, once")
    }

    @Test func aTextNodeAThousandMillionHighWithAutoLines() {
        let (issues, talliedNodes) = refusal(layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "text", "frame": [0, 0, 100, 1e9], "lines": "auto"}]}
            """#))
        #expect(issues == [LayoutIssue(path: "root.children[0]",
                                       message: "this text node resolves to 40000000 lines; the limit is 4096 lines per text node")])
        #expect(talliedNodes == 2)
    }

    @Test func aTinyLineHeightWithAutoLines() {
        let (issues, talliedNodes) = refusal(layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "text", "frame": [0, 0, 100, 500], "lines": "auto"}]}
            """#, extra: #""appearance": {"textLineHeight": 0.0001, "textLineSpacing": 0}"#))
        #expect(issues == [LayoutIssue(path: "root.children[0]",
                                       message: "this text node resolves to 5000000 lines; the limit is 4096 lines per text node")])
        #expect(talliedNodes == 2)
    }

    /// A count beyond what an Int holds used to trap in the resolver.
    @Test func aFrameBeyondEveryIntegerIsRefusedNotACrash() {
        let (issues, _) = refusal(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "text", "frame": [0, 0, 100, 1e300], "lines": "auto"},
              {"kind": "list", "frame": [0, 0, 100, 1e300], "rowHeight": 1, "row": {"kind": "view"}},
              {"kind": "grid", "frame": [0, 0, 1e300, 1e300], "itemSize": [1, 1]}
            ]}
            """#))
        // Each clamped to its own limit, together still too many shapes.
        #expect(issues.map(\.path) == ["root.children[0]", "root.children[1]", "root.children[2]", "root"])
        #expect(issues.first?.message == "this text node resolves to more than 1000000000000000 lines; the limit is 4096 lines per text node")
    }

    @Test func listRowsCountHeadersAndFootersAcrossSections() {
        let (issues, _) = refusal(layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "list", "frame": [0, 0, 100, 20000], "rowHeight": 1,
              "row": {"kind": "view"}, "sections": [
                {"header": {"kind": "view"}, "headerHeight": 1, "rows": 2000},
                {"rows": 2095, "footer": {"kind": "view"}, "footerHeight": 1}]}]}
            """#, canvas: #"{"width": 100, "height": 16384}"#))
        #expect(issues == [LayoutIssue(path: "root.children[0]",
            message: "this list resolves to 4097 rows (section headers and footers included); the limit is 4096 rows per list")])
    }

    @Test func limitsInsideTemplatesNameTheTemplatesPath() {
        let (issues, _) = refusal(layoutText(root: #"""
            {"kind": "list", "rowHeight": 100, "rows": 2, "row": {"kind": "view", "children": [
              {"kind": "text", "lines": "auto", "textLineHeight": 0.001, "textLineSpacing": 0}]}}
            """#))
        #expect(issues == [LayoutIssue(path: "root.row.children[0]",
                                       message: "this text node resolves to 100000 lines; the limit is 4096 lines per text node"),
                           LayoutIssue(path: "root", message: "the layout resolves to 8192 shapes (skeleton shapes, text bars and backgrounds); the limit is 4096 shapes per layout")])
    }

    /// Each list and grid within its limit, together too many: a grid of lists of 4096 rows.
    @Test func totalsAreCountedThroughNestedTemplates() {
        let (issues, talliedNodes) = refusal(layoutText(root: #"""
            {"kind": "grid", "itemSize": [1, 4096], "items": 4096, "item":
              {"kind": "list", "rowHeight": 1, "row": {"kind": "view"}}}
            """#, canvas: #"{"width": 16384, "height": 4096}"#))
        #expect(issues == [
            LayoutIssue(path: "root", message: "the layout resolves to 16781313 nodes (template instances included); the limit is 16384 nodes per layout"),
            LayoutIssue(path: "root", message: "the layout resolves to 16777216 shapes (skeleton shapes, text bars and backgrounds); the limit is 4096 shapes per layout"),
        ])
        #expect(talliedNodes == 3, "the grid, its list item and the list's row, once each for 16 million instances")
    }

    @Test func fixedCountsAreBoundedWhereTheyAreWritten() {
        #expect(loadIssues(layoutText(root: #"{"kind": "text", "lines": 4097}"#)) == [
            LayoutIssue(path: "root.lines", message: "4097 is out of range: expected an integer from 1 to 4096")])
        #expect(loadIssues(layoutText(root: #"{"kind": "list", "rowHeight": 1, "rows": 4097, "row": {"kind": "view"}}"#)) == [
            LayoutIssue(path: "root.rows", message: "4097 is out of range: expected an integer from 0 to 4096")])
        #expect(loadIssues(layoutText(root: #"{"kind": "grid", "itemSize": [1, 1], "items": 4097}"#)) == [
            LayoutIssue(path: "root.items", message: "4097 is out of range: expected an integer from 0 to 4096")])
    }

    @Test func aLayoutAtTheLimitsLoadsAndResolvesToThem() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "grid", "frame": [0, 0, 64, 32], "itemSize": [1, 1]},
              {"kind": "text", "frame": [200, 0, 100, 8192], "lines": "auto", "textLineHeight": 1, "textLineSpacing": 3}
            ]}
            """#, canvas: #"{"width": 1000, "height": 8192}"#))
        #expect(resolved.root.children[0].children.count == 2048)
        #expect(resolved.root.children[1].bars.count == 2048)
        #expect(resolved.skeletonShapes.count == LayoutLimits.shapes)
    }

    /// The daemon's start layout comes through `load(path:)`; refused, the daemon falls back to the built-in one.
    @Test func loadingSuchAFileFailsWithThePathAndTheLimit() throws {
        let file = FileManager.default.temporaryDirectory.path + "/limits-\(UUID().uuidString).json"
        try Data(#"{"canvas": {"width": 16384, "height": 16384}, "root": {"kind": "grid", "itemSize": [1, 1]}}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard case .failure(let error) = LayoutLoader.load(path: file) else {
            Issue.record("a layout of 268 million items loaded")
            return
        }
        #expect(error.lines == ["\(file): root: this grid resolves to 268435456 items; the limit is 4096 items per grid"])
    }

    /// A layout built in code skips the census; the resolver still stops at the limits. Its work
    /// is one placement per node and per bar (each of its loops places one or stops), so the
    /// counts below bound it.
    @Test func theResolverClampsWhatNoLoaderChecked() {
        let rows = Node(kind: .list, list: ListSpec(rowHeight: 1, row: Node(kind: .view, children: [
            Node(kind: .text, text: TextSpec(lines: .auto)), Node(kind: .view, background: .white),
        ]), sections: [ListSection()]))
        let root = Node(kind: .grid, grid: GridSpec(itemWidth: 1, itemHeight: 16384, item: rows))
        let layout = Layout(name: "bomb", canvas: CanvasSpec(width: 16384, height: 16384),
                            appearance: Appearance(textLineHeight: 0.0001, textLineSpacing: 0), root: root)
        var resolver = LayoutResolver(layout: layout, outputSize: Size(width: 640, height: 480))
        let resolved = resolver.resolve()
        func nodes(_ n: ResolvedNode) -> Int { 1 + n.children.map(nodes).reduce(0, +) }
        func bars(_ n: ResolvedNode) -> Int { n.bars.count + n.children.map(bars).reduce(0, +) }
        #expect(nodes(resolved.root) == LayoutLimits.nodes)
        #expect(resolved.items.count == LayoutLimits.shapes)
        #expect(resolved.root.children[0].children[0].children[0].bars.count == LayoutLimits.textLinesPerNode)
        #expect(bars(resolved.root) <= LayoutLimits.shapes)
    }

    /// Under `fill` a tall canvas maps far beyond a wide output; shapes are clipped to the output.
    @Test func shapesAreClippedToTheOutput() throws {
        let resolved = try resolve(layoutText(root: #"{"kind": "view"}"#, canvas: #"{"width": 1, "height": 16384, "scale": "fill"}"#),
                                   size: Size(width: 1920, height: 1080))
        #expect(resolved.skeletonShapes.map(\.clip) == [.xywh(0, 0, 1920, 1080)])
    }
}
