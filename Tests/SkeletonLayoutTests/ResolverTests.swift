import Testing
@testable import SkeletonLayout

@Suite("Resolver: frames, hierarchy, scaling")
struct ResolverTests {
    @Test func framesWithNumbersPercentAndFill() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "view", "id": "a", "frame": [100, "10%", "fill", "50%"], "children": [
                {"kind": "image", "id": "b", "frame": [10, 10, "fill", "fill"]},
                {"kind": "image", "id": "c", "frame": ["25%", "-10%", "50%", 20.5]}
              ]},
              {"kind": "image", "id": "d", "frame": [0, 450, 12.25, "fill"]}
            ]}
            """#))
        let a = resolved.root.children[0]
        #expect(a.frame == .xywh(100, 50, 900, 250))
        #expect(a.children[0].frame == .xywh(110, 60, 890, 240))
        #expect(a.children[1].frame == .xywh(325, 25, 450, 20.5))
        #expect(resolved.root.children[1].frame == .xywh(0, 450, 12.25, 50))
        #expect(resolved.root.frame == .xywh(0, 0, 1000, 500))
        // Shapes are clipped to their ancestors: c pokes out of a's top by 25 pixels.
        let c = resolved.skeletonShapes[1]
        #expect(c.rect == .xywh(325, 25, 450, 20.5))
        #expect(c.clip == .xywh(325, 50, 450, 0))
        #expect(resolved.skeletonShapes.count == 3)
    }

    @Test func fillIsWhatIsLeftAndNeverNegative() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "image", "frame": [1200, 600, "fill", "fill"]}]}
            """#))
        #expect(resolved.root.children[0].frame == .xywh(1200, 600, 0, 0))
    }

    /// root (skeletonable container) > A (container, red background) > B (image)
    ///                               > C (not skeletonable, blue) > D (image, skeletonable)
    ///                               > E (hidden image)
    ///                               > F (leaf view with a background: a skeleton, no background)
    ///                               > G (skeletonable view whose only child is not skeletonable: a leaf)
    static let hierarchy = layoutText(root: #"""
        {"kind": "view", "id": "root", "children": [
          {"kind": "view", "id": "A", "frame": [0, 0, 200, 100], "background": "#FF0000", "children": [
            {"kind": "image", "id": "B", "frame": [10, 10, 20, 20]}
          ]},
          {"kind": "view", "id": "C", "frame": [0, 100, 200, 100], "skeletonable": false, "background": "#0000FF", "children": [
            {"kind": "image", "id": "D", "frame": [10, 10, 20, 20]},
            {"kind": "view", "id": "D2", "frame": [40, 10, 20, 20], "background": "#00FF00"}
          ]},
          {"kind": "image", "id": "E", "frame": [0, 200, 20, 20], "hiddenWhenSkeletonActive": true},
          {"kind": "view", "id": "F", "frame": [0, 300, 50, 50], "background": "#00FF00"},
          {"kind": "view", "id": "G", "frame": [0, 400, 50, 50], "children": [
            {"kind": "view", "id": "H", "frame": [0, 0, 10, 10], "skeletonable": false, "background": "#123456"}
          ]}
        ]}
        """#)

    @Test func skeletonsSitOnTheLeaves() throws {
        let resolved = try resolve(Self.hierarchy)
        let root = resolved.root
        func node(_ path: [Int]) -> ResolvedNode { path.reduce(root) { $0.children[$1] } }
        #expect(!root.isSkeleton)
        #expect(!node([0]).isSkeleton)               // A: container with skeletonable children
        #expect(node([0, 0]).isSkeleton)             // B
        #expect(!node([1]).isSkeleton)               // C: not skeletonable
        #expect(!node([1, 0]).isSkeleton)            // D: below a non-skeletonable node
        #expect(node([1, 0]).skeletonable)
        #expect(!node([2]).isSkeleton && node([2]).hidden)
        #expect(node([3]).isSkeleton)                // F: a leaf view
        #expect(node([4]).isSkeleton)                // G: its only child is not skeletonable
        #expect(!node([4, 0]).isSkeleton)

        // Drawn, in painter's order: A's background, B, C's background, D2's background, F, G.
        // (H is under G's skeleton and drawn before it, as content.)
        #expect(resolved.items == [
            .content(ContentFill(rect: .xywh(0, 0, 200, 100), clip: .xywh(0, 0, 200, 100), cornerRadius: 0, color: Color(rgb: 0xFF0000))),
            .skeleton(SkeletonShape(rect: .xywh(10, 10, 20, 20), clip: .xywh(10, 10, 20, 20), cornerRadius: 0,
                                    tint: Color(rgb: 0xECF0F1), gradient: Appearance().resolvedGradient, delay: 0)),
            .content(ContentFill(rect: .xywh(0, 100, 200, 100), clip: .xywh(0, 100, 200, 100), cornerRadius: 0, color: Color(rgb: 0x0000FF))),
            .content(ContentFill(rect: .xywh(40, 110, 20, 20), clip: .xywh(40, 110, 20, 20), cornerRadius: 0, color: Color(rgb: 0x00FF00))),
            .skeleton(SkeletonShape(rect: .xywh(0, 300, 50, 50), clip: .xywh(0, 300, 50, 50), cornerRadius: 0,
                                    tint: Color(rgb: 0xECF0F1), gradient: Appearance().resolvedGradient, delay: 0)),
            .content(ContentFill(rect: .xywh(0, 400, 10, 10), clip: .xywh(0, 400, 10, 10), cornerRadius: 0, color: Color(rgb: 0x123456))),
            .skeleton(SkeletonShape(rect: .xywh(0, 400, 50, 50), clip: .xywh(0, 400, 50, 50), cornerRadius: 0,
                                    tint: Color(rgb: 0xECF0F1), gradient: Appearance().resolvedGradient, delay: 0)),
        ])
    }

    @Test func aRootThatIsNotSkeletonableDrawsNoSkeleton() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "skeletonable": false, "children": [
              {"kind": "image", "frame": [0, 0, 10, 10]}, {"kind": "text", "frame": [0, 20, 100, 40], "lines": 2}
            ]}
            """#))
        #expect(resolved.skeletonShapes.isEmpty)
        #expect(resolved.items.isEmpty)
    }

    @Test func aSkeletonableRootLeafIsOneBlock() throws {
        let resolved = try resolve(layoutText(root: ##"{"kind": "view", "background": "#FF0000"}"##))
        #expect(resolved.items.count == 1)
        #expect(resolved.shapeRects == [.xywh(0, 0, 1000, 500)])
    }

    @Test func hiddenNodesTakeTheirSubtreeAlong() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "view", "hiddenWhenSkeletonActive": true, "background": "#FF0000", "children": [
                {"kind": "image", "id": "in", "frame": [0, 0, 10, 10]}]},
              {"kind": "image", "frame": [20, 0, 10, 10]}
            ]}
            """#))
        #expect(resolved.items.count == 1)
        #expect(resolved.shapeRects == [.xywh(20, 0, 10, 10)])
        #expect(resolved.root.children[0].hidden)
        #expect(resolved.root.children[0].children.isEmpty)
    }

    /// SkeletonView: hiddenWhenSkeletonActive "works only when isSkeletonable = true"; where the
    /// skeleton is not active (the node or an ancestor is not skeletonable) the node is content.
    @Test func onlySkeletonableNodesAreHidden() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "image", "frame": [0, 0, 10, 10], "skeletonable": false, "background": "#00FF00",
               "hiddenWhenSkeletonActive": true},
              {"kind": "view", "frame": [0, 20, 50, 50], "skeletonable": false, "children": [
                {"kind": "view", "frame": [0, 0, 10, 10], "background": "#0000FF", "hiddenWhenSkeletonActive": true}]},
              {"kind": "image", "frame": [20, 0, 10, 10]}
            ]}
            """#))
        #expect(!resolved.root.children[0].hidden)
        #expect(!resolved.root.children[1].children[0].hidden)
        #expect(resolved.contentFills.map(\.rect) == [.xywh(0, 0, 10, 10), .xywh(0, 20, 10, 10)])
        #expect(resolved.contentFills.map(\.color) == [Color(rgb: 0x00FF00), Color(rgb: 0x0000FF)])
        #expect(resolved.shapeRects == [.xywh(20, 0, 10, 10)])
        #expect(!resolved.root.json.jsonText.contains("hidden"))
    }

    @Test func cornerRadiiAndCircles() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "image", "frame": [0, 0, 80, 80], "shape": "circle"},
              {"kind": "image", "frame": [0, 100, 80, 40], "shape": "circle"},
              {"kind": "image", "frame": [100, 0, 80, 40], "cornerRadius": 12},
              {"kind": "image", "frame": [200, 0, 80, 40], "cornerRadius": 100},
              {"kind": "image", "frame": [300, 0, 80, 40]}
            ]}
            """#, extra: #""appearance": {"cornerRadius": 5}"#))
        #expect(resolved.skeletonShapes.map(\.cornerRadius) == [40, 20, 12, 20, 5])
    }

    @Test func perNodeTintAndGradientPassDown() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "view", "tint": "peterRiver", "children": [{"kind": "image"}]},
              {"kind": "image", "gradient": {"base": "#101010", "secondary": "#202020"}},
              {"kind": "image", "gradient": ["#000000", "#FFFFFF"]},
              {"kind": "image"}
            ]}
            """#, extra: #""appearance": {"tint": "emerald"}"#))
        let shapes = resolved.skeletonShapes
        #expect(shapes[0].tint.hex == "#3498DB")
        #expect(shapes[0].gradient.map(\.hex) == ["#3498DB", "#318FCE", "#3498DB"])
        #expect(shapes[1].tint.hex == "#2ECC71")
        #expect(shapes[1].gradient.map(\.hex) == ["#101010", "#202020", "#101010"])
        #expect(shapes[2].gradient.map(\.hex) == ["#000000", "#FFFFFF"])
        #expect(shapes[3].tint.hex == "#2ECC71")
        #expect(shapes[3].gradient == [Color(rgb: 0x2ECC71), Color(rgb: 0x2ECC71).complement, Color(rgb: 0x2ECC71)])
    }

    @Test func darkSchemeDefaultTint() throws {
        let resolved = try resolve(layoutText(root: #"{"kind": "image"}"#, extra: #""appearance": {"scheme": "dark"}"#))
        #expect(resolved.skeletonShapes[0].tint.hex == "#1C2325")
        #expect(resolved.skeletonShapes[0].gradient.map(\.hex) == ["#1C2325", "#262F32", "#1C2325"])
    }

    @Test func staggerAndDelay() throws {
        let layout = try loadLayout(layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "image"}, {"kind": "image", "animationDelay": 0.5}, {"kind": "image"}]}
            """#, extra: #""presentation": {"animation": {"stagger": 0.1}}"#))
        var resolver = LayoutResolver(layout: layout)
        let delays = resolver.resolve().skeletonShapes.map(\.delay)
        #expect(delays.count == 3)
        #expect(abs(delays[0] - 0) < 1e-12 && abs(delays[1] - 0.6) < 1e-12 && abs(delays[2] - 0.2) < 1e-12)
    }

    // MARK: scale rules

    static func scaled(_ mode: String) -> String {
        layoutText(root: #"""
            {"kind": "view", "children": [{"kind": "image", "frame": [10, 10, 20, 20], "cornerRadius": 4}]}
            """#, canvas: #"{"width": 200, "height": 100, "scale": "\#(mode)"}"#)
    }

    @Test("scale rules map design pixels onto the output", arguments: [
        ("fit", Rect.xywh(20, 120, 40, 40), 8.0, ViewportTransform(scaleX: 2, scaleY: 2, offsetX: 0, offsetY: 100)),
        ("fill", Rect.xywh(-160, 40, 80, 80), 16.0, ViewportTransform(scaleX: 4, scaleY: 4, offsetX: -200, offsetY: 0)),
        ("stretch", Rect.xywh(20, 40, 40, 80), 8.0, ViewportTransform(scaleX: 2, scaleY: 4, offsetX: 0, offsetY: 0)),
        ("none", Rect.xywh(110, 160, 20, 20), 4.0, ViewportTransform(scaleX: 1, scaleY: 1, offsetX: 100, offsetY: 150)),
    ])
    func scaleRule(mode: String, expected: Rect, radius: Double, transform: ViewportTransform) throws {
        let resolved = try resolve(Self.scaled(mode), size: Size(width: 400, height: 400))
        #expect(resolved.transform == transform)
        #expect(resolved.outputSize == Size(width: 400, height: 400))
        #expect(resolved.root.children[0].frame == expected)
        #expect(resolved.skeletonShapes[0].rect == expected)
        #expect(resolved.skeletonShapes[0].cornerRadius == radius)
    }

    @Test func fitLetterboxesHorizontallyToo() throws {
        let resolved = try resolve(Self.scaled("fit"), size: Size(width: 800, height: 200))
        #expect(resolved.transform == ViewportTransform(scaleX: 2, scaleY: 2, offsetX: 200, offsetY: 0))
        #expect(resolved.root.frame == .xywh(200, 0, 400, 200))
    }

    @Test func defaultOutputIsTheCanvas() throws {
        let resolved = try resolve(Self.scaled("fill"))
        #expect(resolved.outputSize == Size(width: 200, height: 100))
        #expect(resolved.root.children[0].frame == .xywh(10, 10, 20, 20))
    }

    @Test func treeJSON() throws {
        let resolved = try resolve(layoutText(root: #"""
            {"kind": "view", "id": "root", "children": [
              {"kind": "text", "id": "t", "frame": [10, 10, 100, 50], "lines": "auto"},
              {"kind": "image", "frame": [0, 0, 1, 1], "hiddenWhenSkeletonActive": true}
            ]}
            """#, canvas: #"{"width": 200, "height": 100}"#), size: Size(width: 400, height: 200))
        #expect(resolved.root.json.jsonText == #"{"children":[{"children":[],"frame":[20,20,200,100],"id":"t","kind":"text","lines":2,"skeleton":true,"skeletonable":true},{"children":[],"frame":[0,0,2,2],"hidden":true,"kind":"image","skeleton":false,"skeletonable":true}],"frame":[0,0,400,200],"id":"root","kind":"view","skeleton":false,"skeletonable":true}"#)
    }

    @Test func sizeParsing() {
        #expect(Size(parsing: "1920x1080") == Size(width: 1920, height: 1080))
        #expect(Size(parsing: "0x10") == nil)
        #expect(Size(parsing: "10") == nil)
        #expect(Size(parsing: "10x10x10") == nil)
        #expect(Size(parsing: "16385x10") == nil)
    }
}
