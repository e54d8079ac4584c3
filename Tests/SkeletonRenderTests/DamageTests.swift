#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import SkeletonLayout
@testable import SkeletonRender

/// The benchmark scene of issue 2, from benchmarks/scene-1080p.json when it exists, else built here.
func benchmarkScene() throws -> Layout {
    let path = packageRoot + "/benchmarks/scene-1080p.json"
    if FileManager.default.fileExists(atPath: path) {
        switch LayoutLoader.load(path: path) {
        case .success(let layout): return layout
        case .failure(let error): Issue.record("\(error)"); throw error
        }
    }
    var children = [
        #"{"kind": "image", "frame": [80, 80, 160, 160], "shape": "circle"}"#,
        #"{"kind": "view", "frame": [280, 100, 600, 40], "cornerRadius": 8}"#,
        #"{"kind": "view", "frame": [280, 156, 420, 24], "cornerRadius": 6}"#,
    ]
    for i in 0..<9 {
        let y = 300 + 84 * i
        children += [
            #"{"kind": "image", "frame": [80, \#(y), 56, 56], "shape": "circle"}"#,
            #"{"kind": "view", "frame": [160, \#(y + 6), 900, 18], "cornerRadius": 4}"#,
            #"{"kind": "view", "frame": [160, \#(y + 34), 630, 18], "cornerRadius": 4}"#,
        ]
    }
    for x in [1180, 1540] {
        for y in [300, 530, 760] { children.append(#"{"kind": "view", "frame": [\#(x), \#(y), 320, 200], "cornerRadius": 14}"#) }
    }
    return try loadLayout(layoutJSON(width: 1920, height: 1080, extra: ##"""
        "appearance": {"tint": "#ECF0F1"},
        "presentation": {"style": "gradient", "animated": true, "animation": {"direction": "leftRight", "duration": 1.5}}
        """##, children: children))
}

@Suite("Damage: render(at:) redraws only what changed")
struct DamageTests {
    static let scene = layoutJSON(width: 240, height: 160, background: "#F8F8F8", children: [
        ##"{"kind": "view", "frame": [0, 0, 240, 24], "skeletonable": false, "background": "#2C3E50"}"##,
        ##"{"kind": "image", "frame": [10.5, 30.25, 50, 50], "shape": "circle"}"##,
        ##"{"kind": "text", "frame": [70, 30, 150, 60], "lines": "auto", "linesCornerRadius": 4, "lastLineFillPercent": 55}"##,
        ##"{"kind": "view", "frame": [5, 95, 120, 50], "background": "#AABBCC", "children": [{"kind": "view", "frame": [10, 10, 130, 20], "cornerRadius": 6}]}"##,
        ##"{"kind": "image", "frame": [100, 100, 60, 40], "cornerRadius": 10, "animationDelay": 0.2, "tint": "peterRiver"}"##,
        ##"{"kind": "image", "frame": [150, 110, 80, 45.5], "cornerRadius": 3}"##,
        ##"{"kind": "text", "frame": [180, 60, 55, 30], "lines": 1, "lastLineAlignment": "right"}"##,
    ])

    static let times = [0.05, 0.3, 0.31, 0.74, 1.2, 1.49, 1.52, 2.0, 2.0, 2.45, 3.7]

    /// Renders `times` one after another with damage only and compares each frame with a full render.
    func checkDamage(_ layout: Layout, overrides: PresentationOverrides, size: Size? = nil, start: Double = 0, times: [Double],
                     expectMotion: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) {
        let incremental = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let reference = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let outputSize = incremental.layout.outputSize
        let canvas = PixelBuffer(size: outputSize, fill: 0xFF00FF)
        let full = PixelBuffer(size: outputSize, fill: 0x00FF00)
        let first = incremental.render(at: start, into: canvas.canvas)
        #expect(first == [canvas.canvas.bounds], "the first frame is drawn whole", sourceLocation: sourceLocation)
        var previous = start
        var smallest = Int.max, largest = 0
        for t in times {
            let rects = incremental.render(at: t, into: canvas.canvas)
            let area = rects.reduce(0) { $0 + $1.area }
            smallest = min(smallest, area)
            largest = max(largest, area)
            for r in rects {
                #expect(canvas.canvas.bounds.contains(r), "damage \(r) outside the output", sourceLocation: sourceLocation)
            }
            reference.renderFull(at: t, into: full.canvas)
            if let d = firstDifference(canvas, full) {
                Issue.record("""
                    frame at \(t) s (after \(previous) s) with damage \(rects) differs from a full render \
                    at (\(d.x), \(d.y)): \(hex(canvas[d.x, d.y])) vs \(hex(full[d.x, d.y])), \(differenceCount(canvas, full)) pixels
                    """, sourceLocation: sourceLocation)
                return
            }
            previous = t
        }
        let whole = outputSize.width * outputSize.height
        if expectMotion {
            #expect(largest > 0, "something moved", sourceLocation: sourceLocation)
            #expect(smallest < whole, "damage smaller than the frame at least once", sourceLocation: sourceLocation)
        } else {
            #expect(largest == 0, "nothing moves, nothing is redrawn", sourceLocation: sourceLocation)
        }
    }

    @Test("sliding in every direction", arguments: SlideDirection.allCases)
    func sliding(direction: SlideDirection) throws {
        let layout = try loadLayout(Self.scene)
        checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: true, direction: direction), times: Self.times)
        // Scaled to an output with fractional edges, starting mid-sweep.
        checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: true, direction: direction),
                    size: Size(width: 333, height: 207), start: 0.4, times: [0.45, 0.9, 1.6, 1.61])
    }

    @Test func screenSpaceSweep() throws {
        let layout = try loadLayout(Self.scene)
        for direction in [SlideDirection.leftRight, .bottomTop, .topLeftBottomRight] {
            checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: true, direction: direction, space: .screen),
                        times: Self.times)
        }
    }

    /// A shape's edge pixels read the gradient at their centres, which may lie outside the shape
    /// (black to white and back, so that the first colours past the band's end differ): a bottom
    /// edge at y = 45.4 leaves 40 % of row 45 covered, read at 45.5. A band whose trailing end has
    /// passed 45.4 but not 45.5 still changes that row. Frames every 0.05 ms through the end of a
    /// sweep put the band's end there, in each direction (a right edge at 59.4, a left one at 20.6).
    @Test(arguments: [(SlideDirection.topBottom, "[10, 5.4, 64, 40]"), (.leftRight, "[19.4, 10, 40, 40]"),
                      (.rightLeft, "[20.6, 10, 40, 40]")])
    func bandLeavingAFractionalEdge(direction: SlideDirection, frame: String) throws {
        let layout = try loadLayout(layoutJSON(width: 120, height: 60, extra: ##""appearance": {"gradient": ["#000000", "#FFFFFF", "#000000"]}"##,
                                               children: [#"{"kind": "view", "frame": \#(frame)}"#]))
        let times = (0..<1000).map { 0.35 + Double($0) * 0.00005 }
        checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: true, direction: direction, duration: 0.4),
                    start: 0.34, times: times)
    }

    @Test func pulse() throws {
        checkDamage(try loadLayout(Self.scene), overrides: PresentationOverrides(style: .solid, animated: true), times: Self.times)
    }

    @Test func customTimingStaggerAutoreverseAndPause() throws {
        let layout = try loadLayout(Self.scene)
        checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: true, direction: .rightLeft, duration: 0.8,
                                                             timing: .easeOut, autoreverse: true, pause: 0.3, stagger: 0.07),
                    times: Self.times)
        checkDamage(layout, overrides: PresentationOverrides(style: .solid, animated: true, duration: 0.6, pause: 0.4, stagger: 0.1),
                    times: Self.times)
    }

    @Test func staticPresentationsNeverRedraw() throws {
        let layout = try loadLayout(Self.scene)
        checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: false), times: Self.times, expectMotion: false)
        checkDamage(layout, overrides: PresentationOverrides(style: .solid, animated: false), times: Self.times, expectMotion: false)
        checkDamage(layout, overrides: PresentationOverrides(style: .gradient, animated: true, reducedMotion: true), times: Self.times,
                    expectMotion: false)
        let renderer = FrameRenderer(layout: layout, overrides: PresentationOverrides(style: .gradient, animated: true))
        #expect(renderer.isAnimating)
        #expect(renderer.changedRects(from: 0.3, to: 0.3).isEmpty)
        #expect(!renderer.changedRects(from: 0.3, to: 0.35).isEmpty)
    }

    @Test func slidingDamageIsTheBandNotTheShape() throws {
        // One wide bar; between two close times only the band's strip changes.
        let layout = try loadLayout(layoutJSON(width: 1000, height: 100, extra: #""presentation": {"style": "gradient", "animated": true}"#,
                                               children: [#"{"kind": "image", "frame": [0, 20, 1000, 40]}"#]))
        let renderer = FrameRenderer(layout: layout)
        let t0 = time(forProgress: 0.5, curve: TimingCurve(.easeIn), duration: 1.5)
        let t1 = time(forProgress: 0.52, curve: TimingCurve(.easeIn), duration: 1.5)
        let rects = renderer.changedRects(from: t0, to: t1)
        #expect(rects.count == 1)
        // The default gradient changes by a few levels only: its first and last 1.7 % read the
        // end colour (base), and those parts of the band stay out of the damage.
        let table = GradientTable(stops: renderer.layout.skeletonShapes[0].gradient)
        #expect(table.flatBelow > 0.015 && table.flatBelow < 0.02)
        #expect(abs(table.flatAbove - (1 - table.flatBelow)) < 1e-9, "the gradient is symmetric")
        // The band spans s in (2p - 1 + below, 2p - 1 + above): from 0.017 to 1.02 of the
        // width at the two times, clipped.
        let left = Int((table.flatBelow * 1000).rounded(.down))
        #expect(rects.first == PixelRect(x: left, y: 20, width: 1000 - left, height: 40))
        let early = renderer.changedRects(from: time(forProgress: 0.1, curve: TimingCurve(.easeIn), duration: 1.5),
                                          to: time(forProgress: 0.12025, curve: TimingCurve(.easeIn), duration: 1.5))
        // s up to 0.2405 - 1 + above of the width: about 223 pixels, where the whole band would be 241.
        let right = Int(((0.2405 - 1 + table.flatAbove) * 1000).rounded(.up))
        #expect(right < 241)
        #expect(early == [PixelRect(x: 0, y: 20, width: right, height: 40)])
    }

    @Test func aGradientOfOneColourNeverChanges() throws {
        let extra = ##""appearance": {"gradient": ["#808080", "#808080"]}, "presentation": {"style": "gradient", "animated": true}"##
        let layout = try loadLayout(layoutJSON(width: 200, height: 50, extra: extra,
                                               children: [#"{"kind": "image", "frame": [0, 10, 200, 30]}"#]))
        let renderer = FrameRenderer(layout: layout)
        #expect(renderer.isAnimating)
        #expect(renderer.changedRects(from: 0.1, to: 0.4).isEmpty)
    }

    /// A pulse between the default tint (#ECF0F1) and its complement (#DEE2E3) moves 14 levels
    /// a second: at 30 frames a second most frames repeat the one before. Those have no damage,
    /// and `repeats` says so exactly when two full renders are equal.
    @Test func aPulseRepeatsFramesBetweenItsLevels() throws {
        let extra = #""presentation": {"style": "solid", "animated": true}"#
        let layout = try loadLayout(layoutJSON(width: 60, height: 40, extra: extra,
                                               children: [#"{"kind": "view", "frame": [10, 10, 22, 22]}"#]))
        let renderer = FrameRenderer(layout: layout)
        let reference = FrameRenderer(layout: layout)
        let canvas = PixelBuffer(width: 60, height: 40)
        let before = PixelBuffer(width: 60, height: 40), after = PixelBuffer(width: 60, height: 40)
        renderer.renderFull(at: 0, into: canvas.canvas)
        var repeated = 0
        for frame in 1...60 {
            let t0 = Double(frame - 1) / 30, t1 = Double(frame) / 30
            reference.renderFull(at: t0, into: before.canvas)
            reference.renderFull(at: t1, into: after.canvas)
            let same = firstDifference(before, after) == nil
            #expect((renderer.repeats(of: t0, from: t1, step: 1, count: 1) == 1) == same, "frame \(frame)")
            let damage = renderer.render(at: t1, into: canvas.canvas)
            #expect(damage.isEmpty == same, "frame \(frame): \(damage)")
            #expect(firstDifference(canvas, after) == nil, "frame \(frame) on the canvas")
            if same { repeated += 1 }
            // Several slots ahead: as many as repeat the frame at t0, one after another.
            var leading = 0
            for k in 1...5 {
                reference.renderFull(at: t0 + Double(k) / 30, into: after.canvas)
                guard firstDifference(before, after) == nil else { break }
                leading += 1
            }
            #expect(renderer.repeats(of: t0, from: t1, step: 1.0 / 30, count: 5) == leading, "frame \(frame)")
        }
        // 28 changes of level in two seconds (14 each way), a few of them two levels at once.
        #expect((28...40).contains(repeated), "\(repeated) of 60 frames repeat the one before")
    }

    /// A shimmer's frame is said to repeat the one before only when it does (its band moves
    /// across the shape: almost never).
    @Test func aShimmerRepeatsOnlyFramesThatAreTheSame() throws {
        let extra = #""presentation": {"style": "gradient", "animated": true, "animation": {"duration": 1.5}}"#
        let layout = try loadLayout(layoutJSON(width: 200, height: 50, extra: extra,
                                               children: [#"{"kind": "view", "frame": [0, 10, 200, 30]}"#]))
        let renderer = FrameRenderer(layout: layout)
        let a = PixelBuffer(width: 200, height: 50), b = PixelBuffer(width: 200, height: 50)
        for frame in 1...45 {
            let t0 = Double(frame - 1) / 30, t1 = Double(frame) / 30
            renderer.renderFull(at: t0, into: a.canvas)
            renderer.renderFull(at: t1, into: b.canvas)
            if renderer.repeats(of: t0, from: t1, step: 1, count: 1) == 1 { #expect(firstDifference(a, b) == nil, "frame \(frame)") }
        }
        #expect(renderer.repeats(of: 0.8 - 1.0 / 30, from: 0.8, step: 1.0 / 30, count: 5) == 0, "the band crosses the shape")
    }

    @Test func benchmarkSceneAt1080p() throws {
        let layout = try benchmarkScene()
        #expect(layout.canvas.size == Size(width: 1920, height: 1080))
        let incremental = FrameRenderer(layout: layout)
        let reference = FrameRenderer(layout: layout)
        #expect(incremental.layout.skeletonShapes.count == 36)
        let canvas = PixelBuffer(width: 1920, height: 1080)
        let full = PixelBuffer(width: 1920, height: 1080)
        incremental.renderFull(at: 0, into: canvas.canvas)
        var damaged = 0
        for t in [1.0 / 60, 0.5, 0.5 + 1.0 / 60, 1.1, 1.55] {
            let rects = incremental.render(at: t, into: canvas.canvas)
            damaged += rects.reduce(0) { $0 + $1.area }
            reference.renderFull(at: t, into: full.canvas)
            if let d = firstDifference(canvas, full) {
                Issue.record("1080p frame at \(t) s differs at (\(d.x), \(d.y)): \(hex(canvas[d.x, d.y])) vs \(hex(full[d.x, d.y]))")
                return
            }
        }
        #expect(damaged > 0)
        #expect(damaged < 5 * 1920 * 1080 / 2, "animated frames redraw well under the whole frame")
    }
}
