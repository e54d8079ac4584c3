import SkeletonLayout

enum TestLayouts {
    static let simpleText = """
    {"name": "simple", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
     "presentation": {"style": "gradient", "animated": true, "animation": {"direction": "leftRight", "duration": 1.5}},
     "root": {"kind": "view", "children": [
        {"kind": "view", "frame": [0, 0, "100%", 20], "skeletonable": false, "background": "#2C3E50"},
        {"kind": "image", "frame": [10, 30, 40, 40], "shape": "circle"},
        {"kind": "text", "frame": [60, 30, 120, 60], "lines": 2, "linesCornerRadius": 4}]}}
    """

    static let simple: Layout = {
        guard case .success(let l) = LayoutLoader.load(text: Array(simpleText.utf8), file: "simple.json") else {
            fatalError("test layout invalid")
        }
        return l
    }()
}
