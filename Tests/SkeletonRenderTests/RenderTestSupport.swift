#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import SkeletonLayout
@testable import SkeletonRender

/// The package's root directory, found from this file's path.
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3) // Tests/SkeletonRenderTests/RenderTestSupport.swift
    return parts.joined(separator: "/")
}()

/// A layout document: canvas, optional appearance/presentation members, and a root node.
func layoutJSON(width: Int = 100, height: Int = 100, background: String = "#FFFFFF", scale: String = "fit",
                extra: String = "", root: String) -> String {
    """
    {"name": "t", "canvas": {"width": \(width), "height": \(height), "background": "\(background)", "scale": "\(scale)"},
     \(extra.isEmpty ? "" : extra + ",")
     "root": \(root)}
    """
}

/// A layout with one root view holding `children` (node JSON texts).
func layoutJSON(width: Int = 100, height: Int = 100, background: String = "#FFFFFF", extra: String = "", children: [String]) -> String {
    layoutJSON(width: width, height: height, background: background, extra: extra,
               root: #"{"kind": "view", "children": [\#(children.joined(separator: ", "))]}"#)
}

/// Three overlapping shapes at fractional positions, with a translucent tint over a dark
/// background, sliding: regions shared by shapes, and edges blended over other shapes.
let overlappingTranslucentScene = layoutJSON(
    width: 90, height: 60, background: "#203040",
    extra: ##""appearance": {"tint": "#FFFFFF80"}, "presentation": {"style": "gradient", "animated": true}"##,
    children: [
        #"{"kind": "image", "frame": [5.5, 4.25, 60, 40], "cornerRadius": 9}"#,
        #"{"kind": "image", "frame": [30, 20, 50, 30.5], "cornerRadius": 6}"#,
        #"{"kind": "image", "frame": [10, 30, 20, 20], "shape": "circle"}"#,
    ])

func loadLayout(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Layout {
    switch LayoutLoader.load(text: Array(text.utf8), file: "test.json") {
    case .success(let layout): return layout
    case .failure(let error):
        Issue.record("layout did not load:\n\(error.description)", sourceLocation: sourceLocation)
        throw error
    }
}

/// Renders a layout fully at `time`.
func render(_ text: String, at time: Double = 0, size: Size? = nil, overrides: PresentationOverrides = PresentationOverrides(),
            sourceLocation: SourceLocation = #_sourceLocation) throws -> PixelBuffer {
    let renderer = FrameRenderer(layout: try loadLayout(text, sourceLocation: sourceLocation), outputSize: size, overrides: overrides)
    let image = PixelBuffer(size: renderer.layout.outputSize, fill: 0xDEADBE)
    renderer.renderFull(at: time, into: image.canvas)
    return image
}

/// Channels of an XRGB pixel.
func channels(_ p: UInt32) -> [Int] { [Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF)] }

/// The largest per-channel difference between a pixel and a colour.
func distance(_ p: UInt32, _ c: Color) -> Int {
    zip(channels(p), [Int(c.red), Int(c.green), Int(c.blue)]).map { abs($0 - $1) }.max()!
}

func hex(_ p: UInt32) -> String { Color(rgb: p).hex }

/// Expects a pixel to be `colour` within `tolerance` levels per channel.
func expectPixel(_ image: PixelBuffer, _ x: Int, _ y: Int, _ colour: Color, tolerance: Int = 0,
                 _ comment: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    let p = image[x, y]
    #expect(distance(p, colour) <= tolerance,
            "pixel (\(x), \(y)) is \(hex(p)), expected \(colour.hex) ± \(tolerance) \(comment())", sourceLocation: sourceLocation)
}

/// The first pixel where two images differ, or nil when they are identical.
func firstDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> (x: Int, y: Int)? {
    precondition(a.width == b.width && a.height == b.height)
    for y in 0..<a.height where memcmp(a.canvas.row(y), b.canvas.row(y), a.width * 4) != 0 {
        for x in 0..<a.width where a[x, y] != b[x, y] { return (x, y) }
    }
    return nil
}

/// Pixels that differ between two images of the same size.
func differenceCount(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    var count = 0
    for y in 0..<a.height where memcmp(a.canvas.row(y), b.canvas.row(y), a.width * 4) != 0 {
        for x in 0..<a.width where a[x, y] != b[x, y] { count += 1 }
    }
    return count
}

/// The time at which a timing curve reaches eased progress `p` over `duration` (bisection).
func time(forProgress p: Double, curve: TimingCurve, duration: Double) -> Double {
    var low = 0.0, high = 1.0
    for _ in 0..<100 {
        let mid = (low + high) / 2
        if curve(mid) < p { low = mid } else { high = mid }
    }
    return (low + high) / 2 * duration
}
