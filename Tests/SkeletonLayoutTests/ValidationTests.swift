import Testing
@testable import SkeletonLayout

@Suite("Validation")
struct ValidationTests {
    /// A valid layout whose root has `children` (JSON text of the array's items).
    func withChildren(_ children: String, extra: String = "") -> String {
        layoutText(root: #"{"kind": "view", "children": [\#(children)]}"#, canvas: #"{"width": 400, "height": 300}"#, extra: extra)
    }

    /// Expects exactly one issue with this path and message.
    func expectIssue(_ text: String, _ path: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let issues = loadIssues(text, sourceLocation: sourceLocation)
        #expect(issues == [LayoutIssue(path: path, message: message)], sourceLocation: sourceLocation)
    }

    @Test func validLayoutLoads() throws {
        let layout = try loadLayout(withChildren(#"""
            {"kind": "image", "id": "a", "frame": [10, 10, 50, 50], "shape": "circle"},
            {"kind": "text", "id": "b", "frame": [70, 10, "fill", 60], "lines": "auto", "padding": {"top": 2, "left": 3}},
            {"kind": "list", "frame": [0, 100, "100%", "fill"], "rowHeight": 40, "rows": 3,
             "row": {"kind": "view", "children": [{"kind": "text", "frame": [0, 5, "80%", 30], "lines": 1}]}},
            {"kind": "grid", "frame": ["50%", 100, "fill", "fill"], "itemSize": [40, 40], "spacing": 4, "items": "auto"}
            """#, extra: #"""
            "appearance": {"tint": "peterRiver", "textLineHeight": 12, "scheme": "dark"},
            "presentation": {"style": "gradient", "animated": true,
                             "animation": {"direction": "topBottom", "duration": 2, "timing": "linear", "space": "screen"},
                             "transition": {"kind": "crossDissolve", "duration": 0.5}}
            """#))
        #expect(layout.name == "test")
        #expect(layout.root.children.count == 4)
        #expect(layout.appearance.tint == Color(rgb: 0x3498DB))
        #expect(layout.appearance.scheme == .dark)
        #expect(layout.presentation.style == .gradient)
        #expect(layout.presentation.animation.direction == .topBottom)
        #expect(layout.presentation.animation.space == .screen)
        #expect(layout.presentation.transition == .crossDissolve(duration: 0.5))
        #expect(layout.root.children[1].text?.padding == EdgeInsets(top: 2, left: 3, bottom: 0, right: 0))
        #expect(layout.root.children[3].grid?.spacingX == 4)
    }

    @Test func unknownKeyWithSuggestion() {
        expectIssue(withChildren(#"{"kind": "view", "fram": [0, 0, 10, 10]}"#),
                    "root.children[0].fram", "unknown key \"fram\" (did you mean \"frame\"?)")
        expectIssue(withChildren("", extra: #""apperance": {}"#),
                    "apperance", "unknown key \"apperance\" (did you mean \"appearance\"?)")
        expectIssue(withChildren(#"{"kind": "text", "line": 2}"#),
                    "root.children[0].line", "unknown key \"line\" (did you mean \"lines\"?)")
    }

    @Test func unknownKeyWithoutSuggestionListsTheKnownOnes() {
        let text = layoutText(root: #"{"kind": "view"}"#, canvas: ##"{"width": 40, "height": 30, "colour": "#fff"}"##)
        expectIssue(text, "canvas.colour", "unknown key \"colour\"; expected one of: background, direction, height, scale, width")
    }

    @Test func wrongTypes() {
        expectIssue(withChildren(#"{"kind": "view", "skeletonable": "yes"}"#),
                    "root.children[0].skeletonable", "expected true or false, found a string")
        expectIssue(layoutText(root: #"{"kind": "view"}"#, canvas: #"{"width": "400", "height": 300}"#),
                    "canvas.width", "expected an integer, found a string")
        expectIssue(layoutText(root: #"{"kind": "view", "children": {}}"#),
                    "root.children", "expected an array, found an object")
        expectIssue(withChildren(#"{"kind": "view", "frame": "full"}"#),
                    "root.children[0].frame", "expected an array, found a string")
        expectIssue(withChildren(#"{"kind": "view", "frame": [0, true, 1, 1]}"#),
                    "root.children[0].frame[1]", "expected a number or \"N%\", found a boolean")
        expectIssue(withChildren(#"{"kind": 3}"#),
                    "root.children[0].kind", "expected one of \"view\", \"text\", \"image\", \"label\", \"progress\", \"list\", \"grid\", found a number")
        expectIssue(withChildren(#"{"kind": "view", "background": 255}"#), "root.children[0].background",
                    "expected a colour string (a name, #RRGGBB, #RRGGBBAA, rgb() or rgba()), found a number")
        expectIssue(withChildren(#"{"kind": "text", "lines": "many"}"#),
                    "root.children[0].lines", "expected an integer from 1 to 4096 or \"auto\", found \"many\"")
    }

    @Test func outOfRange() {
        expectIssue(withChildren(#"{"kind": "view", "cornerRadius": -1}"#),
                    "root.children[0].cornerRadius", "-1 is out of range: expected a number from 0 to 4096")
        expectIssue(layoutText(root: #"{"kind": "view"}"#, canvas: #"{"width": 0, "height": 300}"#),
                    "canvas.width", "0 is out of range: expected an integer from 1 to 16384")
        expectIssue(layoutText(root: #"{"kind": "view"}"#, canvas: #"{"width": 10.5, "height": 300}"#),
                    "canvas.width", "expected an integer, found 10.5")
        expectIssue(withChildren("", extra: #""presentation": {"animation": {"duration": 0}}"#),
                    "presentation.animation.duration", "0 is out of range: expected a number greater than 0, at most 600")
        expectIssue(withChildren("", extra: #""appearance": {"textLineHeight": 0}"#),
                    "appearance.textLineHeight", "0 is out of range: expected a number greater than 0, at most 4096")
        expectIssue(withChildren(#"{"kind": "text", "lines": 0}"#),
                    "root.children[0].lines", "0 is out of range: expected an integer from 1 to 4096")
        expectIssue(withChildren(#"{"kind": "list", "rowHeight": 0, "row": {"kind": "view"}}"#),
                    "root.children[0].rowHeight", "0 is out of range: expected a number from 1 to 16384")
        expectIssue(withChildren(#"{"kind": "grid", "itemSize": [10, 0]}"#),
                    "root.children[0].itemSize[1]", "0 is out of range: expected a number from 1 to 16384")
    }

    @Test func theDesignDocumentsPathExample() {
        expectIssue(withChildren(#"""
            {"kind": "view", "frame": [0, 0, 10, 10]},
            {"kind": "view", "frame": [0, 0, 10, 10]},
            {"kind": "view", "frame": [0, 0, 10, -5]}
            """#),
            "root.children[2].frame[3]", "-5 is out of range: expected a number of at least 0, \"N%\" or \"fill\"")
    }

    @Test func duplicateIds() {
        expectIssue(withChildren(#"""
            {"kind": "image", "id": "avatar"},
            {"kind": "view", "children": [{"kind": "text", "id": "avatar"}]}
            """#),
            "root.children[1].children[0].id", "duplicate id \"avatar\": already used at root.children[0].id")
        expectIssue(withChildren(#"{"kind": "image", "id": ""}"#), "root.children[0].id", "an id must not be empty")
    }

    @Test func unknownColourNames() {
        expectIssue(withChildren("", extra: #""appearance": {"tint": "cloudz"}"#), "appearance.tint",
                    "unknown colour \"cloudz\": expected one of the flat colour names (clouds, peterRiver, ...), #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)")
        expectIssue(withChildren(##"{"kind": "view", "skeletonable": false, "background": "#12345"}"##),
                    "root.children[0].background", "bad colour \"#12345\": expected #RRGGBB or #RRGGBBAA")
        expectIssue(withChildren("", extra: #""appearance": {"gradient": ["clouds", "nope"]}"#),
                    "appearance.gradient[1]",
                    "unknown colour \"nope\": expected one of the flat colour names (clouds, peterRiver, ...), #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)")
    }

    @Test func frameShapes() {
        expectIssue(withChildren(#"{"kind": "view", "frame": [0, 0, 10]}"#),
                    "root.children[0].frame", "expected [x, y, width, height] (4 values), found 3")
        expectIssue(withChildren(#"{"kind": "view", "frame": ["fill", 0, 10, 10]}"#),
                    "root.children[0].frame[0]", "\"fill\" is only for a width or a height: expected a number or \"N%\"")
        expectIssue(withChildren(#"{"kind": "view", "frame": [0, "5O%", 10, 10]}"#),
                    "root.children[0].frame[1]", "expected a number or \"N%\", found \"5O%\"")
        expectIssue(withChildren(#"{"kind": "view", "frame": [0, 0, "-10%", 10]}"#),
                    "root.children[0].frame[2]", "\"-10%\" is out of range: expected a number of at least 0, \"N%\" or \"fill\"")
    }

    @Test func textTooSmallForANumericLineCount() {
        expectIssue(withChildren(#"{"kind": "text", "frame": [0, 0, 100, 10], "lines": 2}"#), "root.children[0].frame",
                    "text node is too small for one line: its height after padding is 10, a line needs 15 (lines is 2)")
        // Padding counts; the node's own line height counts.
        expectIssue(withChildren(#"{"kind": "text", "frame": [0, 0, 100, 20], "lines": 1, "padding": 3}"#), "root.children[0].frame",
                    "text node is too small for one line: its height after padding is 14, a line needs 15 (lines is 1)")
        #expect((try? loadLayout(withChildren(#"{"kind": "text", "frame": [0, 0, 100, 20], "lines": 1, "textLineHeight": 14, "padding": 3}"#))) != nil)
        // "auto" is never an error: a node under one line high just has no bars.
        #expect((try? loadLayout(withChildren(#"{"kind": "text", "frame": [0, 0, 100, 10], "lines": "auto"}"#))) != nil)
        // Inside a list row template the path is the template's, reported once.
        expectIssue(withChildren(#"""
            {"kind": "list", "frame": [0, 0, 400, 300], "rowHeight": 50, "rows": 4,
             "row": {"kind": "view", "children": [{"kind": "text", "frame": [0, 0, 100, "10%"], "lines": 1}]}}
            """#), "root.children[0].row.children[0].frame",
            "text node is too small for one line: its height after padding is 5, a line needs 15 (lines is 1)")
    }

    @Test func enumerationsSuggest() {
        expectIssue(withChildren("", extra: #""presentation": {"style": "gradiant"}"#), "presentation.style",
                    "unknown value \"gradiant\": expected one of \"solid\", \"gradient\" (did you mean \"gradient\"?)")
        expectIssue(withChildren("", extra: #""presentation": {"animation": {"direction": "leftToRight"}}"#),
                    "presentation.animation.direction",
                    "unknown value \"leftToRight\": expected one of \"leftRight\", \"rightLeft\", \"topBottom\", \"bottomTop\", \"topLeftBottomRight\", \"bottomRightTopLeft\" (did you mean \"leftRight\"?)")
        expectIssue(withChildren("", extra: #""presentation": {"transition": {"kind": "fade"}}"#),
                    "presentation.transition.kind", "unknown value \"fade\": expected one of \"none\", \"crossDissolve\"")
    }

    @Test func missingKeysAndMisplacedChildren() {
        expectIssue(withChildren(#"{"frame": [0, 0, 1, 1]}"#), "root.children[0].kind",
                    "missing key \"kind\": expected one of \"view\", \"text\", \"image\", \"label\", \"progress\", \"list\", \"grid\"")
        expectIssue(#"{"root": {"kind": "view"}}"#, "canvas", "missing key \"canvas\": a layout needs {\"width\", \"height\"}")
        expectIssue(withChildren(#"{"kind": "text", "children": []}"#), "root.children[0].children",
                    "a text node has no children: only a view does (lists and grids take templates)")
        expectIssue(withChildren(#"{"kind": "list", "rowHeight": 20}"#), "root.children[0].row",
                    "missing key \"row\": a list needs a row template node")
        let issues = loadIssues("[]")
        #expect(issues == [LayoutIssue(path: "", message: "expected an object, found an array")])
    }

    @Test func everyErrorOfAFileIsReported() {
        let text = layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "view", "frame": [0, 0, 10, 10]},
              {"kind": "view", "frame": ["fill", 0, 10, 10]}
            ]}
            """#, canvas: #"{"width": 0, "height": 300}"#, extra: #""appearance": {"tint": "cloudz"}"#)
        let result = LayoutLoader.load(text: Array(text.utf8), file: "layouts/three.json")
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.lines == [
            "layouts/three.json: canvas.width: 0 is out of range: expected an integer from 1 to 16384",
            "layouts/three.json: appearance.tint: unknown colour \"cloudz\": expected one of the flat colour names (clouds, peterRiver, ...), #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)",
            "layouts/three.json: root.children[1].frame[0]: \"fill\" is only for a width or a height: expected a number or \"N%\"",
        ])
    }

    @Test func manyErrorsInOneNodeAndSiblings() {
        let issues = loadIssues(withChildren(#"""
            {"kind": "view", "cornerRadius": -2, "skeletonable": 1, "fram": []},
            {"kind": "image", "id": "x"},
            {"kind": "image", "id": "x", "shape": "oval"}
            """#))
        #expect(issues.map(\.path) == ["root.children[0].skeletonable", "root.children[0].cornerRadius", "root.children[0].fram",
                                       "root.children[2].id", "root.children[2].shape"])
        #expect(issues.count == 5)
    }

    @Test func everyTooSmallTextIsReported() {
        let issues = loadIssues(withChildren(#"""
            {"kind": "text", "frame": [0, 0, 100, 10], "lines": 1},
            {"kind": "text", "frame": [0, 20, 100, 40], "lines": 1},
            {"kind": "text", "frame": [0, 80, 100, 14], "lines": 3}
            """#))
        #expect(issues.map(\.path) == ["root.children[0].frame", "root.children[2].frame"])
    }

    @Test func lastLineFillPercentIsClamped() throws {
        let layout = try loadLayout(withChildren(#"{"kind": "text", "lastLineFillPercent": 150}, {"kind": "text", "lastLineFillPercent": -20}"#,
                                                 extra: #""appearance": {"lastLineFillPercent": 120}"#))
        #expect(layout.appearance.lastLineFillPercent == 100)
        #expect(layout.root.children[0].appearance.lastLineFillPercent == 100)
        #expect(layout.root.children[1].appearance.lastLineFillPercent == 0)
    }

    @Test func nameDefaultsToTheFileStem() throws {
        let text = #"{"canvas": {"width": 10, "height": 10}, "root": {"kind": "view"}}"#
        guard case .success(let layout) = LayoutLoader.load(text: Array(text.utf8), file: "/etc/skeletond/layouts/feed.json")
        else { Issue.record("did not load"); return }
        #expect(layout.name == "feed")
    }
}
