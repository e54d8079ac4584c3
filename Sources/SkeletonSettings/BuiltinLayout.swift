import SkeletonLayout

/// The layout shown when the configured one is missing or broken, so a boot never shows a
/// blank screen because of a typo. It is compiled in and cannot fail to load.
enum BuiltinLayout {
    static let name = "builtin-default"

    static let text = """
    {"name": "builtin-default",
     "canvas": {"width": 1280, "height": 720, "background": "#FFFFFF", "scale": "fit"},
     "presentation": {"style": "gradient", "animated": true, "animation": {"direction": "leftRight", "duration": 1.5}},
     "root": {"kind": "view", "children": [
       {"kind": "view", "frame": [0, 0, "100%", 64], "skeletonable": false, "background": "#2C3E50"},
       {"kind": "image", "frame": [40, 96, 120, 120], "shape": "circle"},
       {"kind": "text", "frame": [184, 100, 560, 110], "lines": "auto", "lastLineFillPercent": 50, "linesCornerRadius": 5},
       {"kind": "list", "frame": [40, 240, 700, "fill"], "rowHeight": 88, "row": {"kind": "view", "children": [
          {"kind": "image", "frame": [0, 12, 64, 64], "shape": "circle"},
          {"kind": "text", "frame": [84, 14, "fill", 60], "lines": 2}]}},
       {"kind": "grid", "frame": [780, 96, "fill", "fill"], "itemSize": [220, 160], "spacing": [20, 20], "cornerRadius": 12}
     ]}}
    """

    static let layout: Layout = {
        switch LayoutLoader.load(text: Array(text.utf8), file: "<built-in>") {
        case .success(let layout): return layout
        case .failure(let error): fatalError("the built-in layout is invalid: \(error)")
        }
    }()
}
