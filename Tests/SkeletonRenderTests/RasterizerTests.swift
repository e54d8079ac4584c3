import Testing
import SkeletonLayout
@testable import SkeletonRender

/// A rounded rectangle in the test's own terms, for an independent reference.
struct ReferenceShape {
    var x0, y0, x1, y1, r: Double

    init(x: Double, y: Double, width: Double, height: Double, radius: Double) {
        x0 = x; y0 = y; x1 = x + width; y1 = y + height
        r = min(radius, width / 2, height / 2)
    }

    func contains(_ px: Double, _ py: Double) -> Bool {
        guard px >= x0, px <= x1, py >= y0, py <= y1 else { return false }
        let dx = max(x0 + r - px, 0, px - (x1 - r)), dy = max(y0 + r - py, 0, py - (y1 - r))
        return dx * dx + dy * dy <= r * r
    }

    /// Coverage of pixel (i, j) by 16 x 16 point samples.
    func supersampled(_ i: Int, _ j: Int) -> Double {
        var inside = 0
        for sy in 0..<16 {
            for sx in 0..<16 where contains(Double(i) + (Double(sx) + 0.5) / 16, Double(j) + (Double(sy) + 0.5) / 16) {
                inside += 1
            }
        }
        return Double(inside) / 256
    }

    /// True when the whole pixel square lies inside (convex shape: its four corners do).
    func coversFully(_ i: Int, _ j: Int) -> Bool {
        let x = Double(i), y = Double(j)
        return contains(x, y) && contains(x + 1, y) && contains(x, y + 1) && contains(x + 1, y + 1)
    }

    /// True when the pixel square is farther than r from the inner rectangle (no overlap at all).
    func missesFully(_ i: Int, _ j: Int) -> Bool {
        let x = Double(i), y = Double(j)
        let gx = max(0, (x0 + r) - (x + 1), x - (x1 - r)), gy = max(0, (y0 + r) - (y + 1), y - (y1 - r))
        if x + 1 <= x0 || x >= x1 || y + 1 <= y0 || y >= y1 { return true }
        return gx * gx + gy * gy >= r * r && (gx > 0 || gy > 0) && r > 0
    }
}

@Suite("Rasterizer")
struct RasterizerTests {
    @Test func solidFillInsideAndBackgroundOutside() throws {
        let image = try render(layoutJSON(background: "#102030", extra: #""appearance": {"tint": "peterRiver"}"#,
                                          children: [#"{"kind": "image", "frame": [10, 10, 30, 20]}"#]))
        let tint = Color(rgb: 0x3498DB), background = Color(rgb: 0x102030)
        for y in 0..<100 {
            for x in 0..<100 {
                let inside = (10..<40).contains(x) && (10..<30).contains(y)
                guard image[x, y] == (inside ? tint : background).xrgb else {
                    Issue.record("pixel (\(x), \(y)) is \(hex(image[x, y])), expected \(inside ? "tint" : "background")")
                    return
                }
            }
        }
    }

    /// Renders one black shape on white and compares every pixel with the reference:
    /// interiors and exteriors exactly, edges on average within one level per channel.
    func checkAntialiasing(frame: (Double, Double, Double, Double), shapeKeys: String, radius: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let node = #"{"kind": "image", "frame": [\#(frame.0), \#(frame.1), \#(frame.2), \#(frame.3)], \#(shapeKeys)}"#
        let image = try render(layoutJSON(width: 72, height: 72, extra: ##""appearance": {"tint": "#000000"}"##, children: [node]))
        let shape = ReferenceShape(x: frame.0, y: frame.1, width: frame.2, height: frame.3, radius: radius)
        var edgePixels = 0, totalError = [0.0, 0.0, 0.0], worst = 0.0
        for j in 0..<72 {
            for i in 0..<72 {
                let p = image[i, j]
                if shape.coversFully(i, j) {
                    #expect(p == 0x000000, "interior pixel (\(i), \(j)) is \(hex(p))", sourceLocation: sourceLocation)
                } else if shape.missesFully(i, j) {
                    #expect(p == 0xFFFFFF, "exterior pixel (\(i), \(j)) is \(hex(p))", sourceLocation: sourceLocation)
                } else {
                    let expected = 255 * (1 - shape.supersampled(i, j))
                    edgePixels += 1
                    for (c, value) in channels(p).enumerated() {
                        let error = abs(Double(value) - expected)
                        totalError[c] += error
                        worst = max(worst, error)
                    }
                }
            }
        }
        #expect(edgePixels > 40, sourceLocation: sourceLocation)
        for c in 0..<3 {
            let mean = totalError[c] / Double(edgePixels)
            #expect(mean <= 1.0, "mean edge error \(mean) levels over \(edgePixels) pixels (worst \(worst))",
                    sourceLocation: sourceLocation)
        }
        // No single edge pixel is far off either (the reference itself is quantised to 1/256).
        #expect(worst <= 6, "worst edge error \(worst) levels", sourceLocation: sourceLocation)
    }

    @Test func circleEdgesMatchA16x16Supersample() throws {
        try checkAntialiasing(frame: (10.3, 12.7, 41.5, 41.5), shapeKeys: #""shape": "circle""#, radius: 41.5 / 2)
        try checkAntialiasing(frame: (3.61, 5.17, 63.9, 63.9), shapeKeys: #""shape": "circle""#, radius: 63.9 / 2)
    }

    @Test func roundedRectEdgesMatchA16x16Supersample() throws {
        // Straight edges on sixteenths so that the reference's own quantisation does not count.
        try checkAntialiasing(frame: (5.25, 7.75, 50.5, 30.1875), shapeKeys: #""cornerRadius": 9.5"#, radius: 9.5)
        try checkAntialiasing(frame: (20.5625, 3.125, 31.25, 60.5), shapeKeys: #""cornerRadius": 15.3"#, radius: 15.3)
        try checkAntialiasing(frame: (4.5, 4.5, 60.25, 12.0625), shapeKeys: #""cornerRadius": 0"#, radius: 0)
    }

    @Test func wholePixelRectanglesHaveNoSoftEdges() throws {
        let image = try render(layoutJSON(extra: ##""appearance": {"tint": "#000000"}"##,
                                          children: [#"{"kind": "image", "frame": [10, 10, 30, 20]}"#]))
        let values = Set(image.pixels)
        #expect(values == [0x000000, 0xFFFFFF])
    }

    @Test func partlyCoveredEdgePixelsBlendByArea() throws {
        // x from 10.5 to 30.5, y from 10 to 30.25: half-covered columns, a quarter-covered row.
        let image = try render(layoutJSON(extra: ##""appearance": {"tint": "#000000"}"##,
                                          children: [#"{"kind": "image", "frame": [10.5, 10, 20, 20.25]}"#]))
        func level(_ x: Int, _ y: Int) -> Double { Double(channels(image[x, y])[0]) }
        #expect(abs(level(10, 15) - 127.5) <= 1)
        #expect(abs(level(30, 15) - 127.5) <= 1)
        #expect(abs(level(20, 30) - 191.25) <= 1)
        #expect(abs(level(10, 30) - 223.125) <= 1)
        #expect(image[9, 15] == 0xFFFFFF && image[31, 15] == 0xFFFFFF && image[20, 31] == 0xFFFFFF)
        #expect(image[11, 15] == 0x000000 && image[29, 29] == 0x000000)
        #expect(Set(channels(image[10, 15])).count == 1)
    }

    @Test func shapesAreClippedToTheirAncestors() throws {
        let image = try render(layoutJSON(extra: ##""appearance": {"tint": "#000000"}"##, children: [
            #"{"kind": "view", "frame": [10, 10, 20, 20], "children": [{"kind": "image", "frame": [-5, 5, 50, 10]}]}"#,
        ]))
        #expect(image[9, 17] == 0xFFFFFF)
        #expect(image[10, 17] == 0x000000)
        #expect(image[29, 17] == 0x000000)
        #expect(image[30, 17] == 0xFFFFFF)
        #expect(image[15, 14] == 0xFFFFFF && image[15, 15] == 0x000000 && image[15, 24] == 0x000000 && image[15, 25] == 0xFFFFFF)
    }

    @Test func contentBackgroundsAndNonSkeletonNodes() throws {
        // A non-skeletonable header with its background, a skeletonable container keeping its own
        // background under its skeleton children, and a hidden node drawing nothing.
        let image = try render(layoutJSON(children: [
            ##"{"kind": "view", "frame": [0, 0, 100, 20], "skeletonable": false, "background": "#2C3E50", "children": [{"kind": "image", "frame": [5, 5, 10, 10]}]}"##,
            ##"{"kind": "view", "frame": [0, 30, 100, 40], "background": "#FF0000", "children": [{"kind": "image", "frame": [10, 10, 20, 20]}]}"##,
            ##"{"kind": "image", "frame": [0, 80, 20, 20], "hiddenWhenSkeletonActive": true}"##,
            ##"{"kind": "view", "frame": [50, 80, 20, 20], "background": "#00FF00", "cornerRadius": 8}"##,
            ##"{"kind": "view", "frame": [75, 80, 20, 20], "background": "#00FF00", "tint": "#00000080"}"##,
        ]))
        expectPixel(image, 7, 7, Color(rgb: 0x2C3E50))   // the image under the header is content: nothing drawn
        expectPixel(image, 50, 10, Color(rgb: 0x2C3E50))
        expectPixel(image, 5, 35, Color(rgb: 0xFF0000))  // container background stays
        expectPixel(image, 15, 45, Color(rgb: 0xECF0F1)) // its child is a skeleton
        expectPixel(image, 10, 90, Color.white)          // hidden
        expectPixel(image, 60, 90, Color(rgb: 0xECF0F1)) // a skeleton leaf hides its own background:
        expectPixel(image, 50, 80, Color.white)          // outside its rounded corner what lies beneath shows
        expectPixel(image, 85, 90, Color(rgb: 0x808080), tolerance: 1) // a translucent skeleton shows the page, not its background
    }

    @Test func canvasWithStrideLeavesThePaddingAlone() throws {
        let layout = try loadLayout(layoutJSON(children: [#"{"kind": "image", "frame": [-3.5, 10.25, 50, 30], "cornerRadius": 8}"#,
                                                          #"{"kind": "image", "frame": [60, 60, 60, 60], "shape": "circle"}"#]))
        let renderer = FrameRenderer(layout: layout)
        let tight = PixelBuffer(width: 100, height: 100)
        renderer.renderFull(at: 0, into: tight.canvas)
        let stride = 128
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: stride * 100)
        defer { storage.deallocate() }
        storage.initialize(repeating: 0xABCDEF, count: stride * 100)
        let padded = Canvas(base: storage, width: 100, height: 100, stride: stride)
        renderer.renderFull(at: 0, into: padded)
        for y in 0..<100 {
            for x in 0..<stride {
                let expected = x < 100 ? tight[x, y] : 0xABCDEF
                guard storage[y * stride + x] == expected else {
                    Issue.record("pixel (\(x), \(y)) of the padded canvas is \(hex(storage[y * stride + x])), expected \(hex(expected))")
                    return
                }
            }
        }
    }

    @Test func translucentTintBlendsOverTheBackground() throws {
        let image = try render(layoutJSON(background: "#000000", extra: ##""appearance": {"tint": "#FFFFFF80"}"##,
                                          children: [#"{"kind": "image", "frame": [10, 10, 30, 20]}"#]))
        expectPixel(image, 20, 20, Color(rgb: 0x808080), tolerance: 1)
        #expect(image[5, 5] == 0x000000)
    }

    @Test func dissolve() {
        let under = PixelBuffer(width: 4, height: 2, fill: 0x000000)
        let over = PixelBuffer(width: 4, height: 2, fill: 0xFF8040)
        let out = PixelBuffer(width: 4, height: 2, fill: 0x123456)
        out.canvas.dissolve(PixelRect(x: 0, y: 0, width: 2, height: 2), under: under.canvas, over: over.canvas, alpha: 128)
        #expect(out[0, 0] == 0x804020)
        #expect(out[2, 0] == 0x123456)
        out.canvas.dissolve(out.canvas.bounds, under: under.canvas, over: over.canvas, alpha: 0)
        #expect(Set(out.pixels) == [0x000000])
        out.canvas.dissolve(out.canvas.bounds, under: under.canvas, over: over.canvas, alpha: 255)
        #expect(Set(out.pixels) == [0xFF8040])
        #expect(PixelMath.blend(under: 0x000000, over: 0xFFFFFF, alpha: 64) == 0x404040)
    }

    /// The run's blend onto a known pixel rounds as the pixel-by-pixel blend, at every opacity.
    @Test func blendOntoOnePixelIsTheBlend() {
        let pixels: [UInt32] = [0x000000, 0xFFFFFF, 0x123456, 0xECF0F1, 0x2C3E50, 0x80FF01, 0xFE7F80]
        var differing = 0
        for alpha in UInt32(0)...255 {
            for under in pixels {
                let blend = PixelMath.BlendOnto(under: under, alpha: alpha)
                for over in pixels + (0..<64).map({ UInt32($0) &* 0x04_0301 }) where blend(over) != PixelMath.blend(under: under, over: over, alpha: alpha) {
                    differing += 1
                }
            }
        }
        #expect(differing == 0)
    }

    /// A run of colours blended four lanes at a time, and the lanes left over one by one, equal
    /// the blend of each colour, at every count from 0 to 11 and every alpha.
    @Test func blendingARunInLanesEqualsBlendingEachPixel() {
        let colors: [UInt32] = (0..<11).map { UInt32($0) &* 0x17_2B3D &+ 0x01_FF80 }
        var out = [UInt32](repeating: 0xDEADBEEF, count: 12)
        var differing: [String] = []
        for alpha in UInt32(0)...255 {
            let blend = PixelMath.BlendOnto(under: 0x2C3E50, alpha: alpha)
            for count in 0...11 {
                out.withUnsafeMutableBufferPointer { o in
                    colors.withUnsafeBufferPointer { c in blend.run(c.baseAddress!, into: o.baseAddress!, count: min(count, 11)) }
                }
                for k in 0..<min(count, 11) where out[k] != PixelMath.blend(under: 0x2C3E50, over: colors[k], alpha: alpha) {
                    differing.append("alpha \(alpha), count \(count), pixel \(k)")
                }
                #expect(out[11] == 0xDEADBEEF, "nothing written past the run")
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5))")
    }
}
