import Testing
@testable import SkeletonLayout

/// A layout document around `root` (a node's JSON text), with a canvas and optional extra
/// top-level members ("appearance": ..., "presentation": ...).
func layoutText(root: String, canvas: String = #"{"width": 1000, "height": 500}"#, extra: String = "") -> String {
    """
    {
      "name": "test",
      "canvas": \(canvas),
      \(extra.isEmpty ? "" : extra + ",")
      "root": \(root)
    }
    """
}

/// Loads layout text; records a test failure (with every issue) when it does not load.
func loadLayout(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Layout {
    switch LayoutLoader.load(text: Array(text.utf8), file: "test.json") {
    case .success(let layout): return layout
    case .failure(let error):
        Issue.record("layout did not load:\n\(error.description)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The issues of layout text that must not load (an empty list records a failure).
func loadIssues(_ text: String, file: String = "test.json", sourceLocation: SourceLocation = #_sourceLocation) -> [LayoutIssue] {
    switch LayoutLoader.load(text: Array(text.utf8), file: file) {
    case .success:
        Issue.record("layout loaded but errors were expected", sourceLocation: sourceLocation)
        return []
    case .failure(let error): return error.issues
    }
}

/// Resolves a layout (at its canvas size unless `size` is given).
func resolve(_ text: String, size: Size? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> ResolvedLayout {
    let layout = try loadLayout(text, sourceLocation: sourceLocation)
    var resolver = LayoutResolver(layout: layout, outputSize: size)
    return resolver.resolve()
}

extension Rect {
    /// Exact comparison with a readable failure.
    static func xywh(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }
}

extension ResolvedLayout {
    var shapeRects: [Rect] { skeletonShapes.map(\.rect) }
    var contentFills: [ContentFill] {
        items.compactMap { if case .content(let c) = $0 { return c } else { return nil } }
    }
}
