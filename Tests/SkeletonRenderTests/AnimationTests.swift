import Testing
import SkeletonLayout
@testable import SkeletonRender

let clouds = Color(rgb: 0xECF0F1)
let cloudsComplement = Color(rgb: 0xDEE2E3)

@Suite("Timing")
struct TimingTests {
    @Test func namedCurves() {
        #expect(abs(TimingCurve(.easeIn)(0.5) - 0.3153) < 1e-4)
        #expect(abs(TimingCurve(.easeOut)(0.5) - 0.6847) < 1e-4)
        #expect(abs(TimingCurve(.easeInOut)(0.5) - 0.5) < 1e-9)
        #expect(TimingCurve(.linear)(0.3) == 0.3)
        for curve in TimingCurveName.allCases.map(TimingCurve.init) {
            #expect(curve(0) == 0 && curve(1) == 1 && curve(-1) == 0 && curve(2) == 1)
            var previous = 0.0
            for k in 1...100 {
                let v = curve(Double(k) / 100)
                #expect(v >= previous - 1e-12)
                previous = v
            }
        }
        // ease-in is slow at first: cubic-bezier(0.42, 0, 1, 1) at 0.25 and 0.75.
        #expect(abs(TimingCurve(.easeIn)(0.25) - 0.0935) < 1e-4)
        #expect(abs(TimingCurve(.easeIn)(0.75) - 0.6219) < 1e-4)
        // x(s) = t solved to high precision: the curve's own inverse point.
        let s = 0.37, curve = TimingCurve(.easeInOut)
        let x = 3 * (1 - s) * (1 - s) * s * 0.42 + 3 * (1 - s) * s * s * 0.58 + s * s * s
        let y = 3 * (1 - s) * s * s + s * s * s
        #expect(abs(curve(x) - y) < 1e-7)
    }

    @Test func slidingTimeline() {
        let t = AnimationTimeline(style: .gradient, animation: AnimationSpec())
        #expect(t.duration == 1.5 && !t.autoreverse && t.period == 1.5)
        #expect(t.progress(at: 0) == 0)
        #expect(abs(t.progress(at: 0.75) - TimingCurve(.easeIn)(0.5)) < 1e-12)
        #expect(t.progress(at: 1.5) == 0)
        #expect(abs(t.progress(at: 1.5 + 0.75) - TimingCurve(.easeIn)(0.5)) < 1e-9)
        #expect(t.progress(at: 1.4999) > 0.999)
        #expect(t.progress(at: -1) == 0)
    }

    @Test func pulseTimeline() {
        let t = AnimationTimeline(style: .solid, animation: AnimationSpec())
        #expect(t.duration == 1 && t.autoreverse && t.period == 2)
        #expect(t.progress(at: 0) == 0)
        #expect(t.progress(at: 1) == 1)
        #expect(t.progress(at: 2) == 0)
        #expect(abs(t.progress(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(t.progress(at: 1.5) - 0.5) < 1e-9)
        #expect(abs(t.progress(at: 0.25) - t.progress(at: 1.75)) < 1e-9)
        #expect(t.progress(at: 3) == 1)
    }

    @Test func pauseAndCustomTiming() {
        let t = AnimationTimeline(style: .gradient, animation: AnimationSpec(duration: 1, timing: .linear, pause: 0.4))
        #expect(abs(t.period - 1.4) < 1e-12)
        #expect(abs(t.progress(at: 0.5) - 0.5) < 1e-12)
        #expect(t.progress(at: 1.2) == 1)     // pausing: the band has left, the shape is all base
        #expect(abs(t.progress(at: 1.9) - 0.5) < 1e-9)
        let reversing = AnimationTimeline(style: .gradient, animation: AnimationSpec(duration: 1, timing: .linear, autoreverse: true))
        #expect(reversing.period == 2)
        #expect(abs(reversing.progress(at: 1.25) - 0.75) < 1e-12)
    }
}

@Suite("Presentations")
struct PresentationTests {
    func layout(style: String, animated: Bool, animation: String = "{}", appearance: String = "{}", width: Int = 240, height: Int = 160,
                children: [String] = [#"{"kind": "image", "frame": [20, 30, 200, 100]}"#]) -> String {
        layoutJSON(width: width, height: height, extra: #"""
            "appearance": \#(appearance),
            "presentation": {"style": "\#(style)", "animated": \#(animated), "animation": \#(animation)}
            """#, children: children)
    }

    @Test func solidIsTheTint() throws {
        let image = try render(layout(style: "solid", animated: false), at: 0.7)
        expectPixel(image, 20, 30, clouds)
        expectPixel(image, 219, 129, clouds)
        expectPixel(image, 19, 30, .white)
        expectPixel(image, 220, 130, .white)
    }

    @Test func staticGradientRunsTopToBottomOverEachShape() throws {
        let text = layout(style: "gradient", animated: false, children: [
            #"{"kind": "image", "frame": [10, 0, 50, 101]}"#, #"{"kind": "image", "frame": [100, 40, 50, 21]}"#,
        ])
        let image = try render(text)
        // Shape 1: rows 0...100, middle row 50.
        expectPixel(image, 30, 0, clouds, tolerance: 1)
        expectPixel(image, 30, 50, cloudsComplement)
        expectPixel(image, 30, 100, clouds, tolerance: 1)
        // Shape 2 has its own gradient: rows 40...60, middle row 50.
        expectPixel(image, 120, 40, clouds, tolerance: 1)
        expectPixel(image, 120, 50, cloudsComplement)
        expectPixel(image, 120, 60, clouds, tolerance: 1)
        // Every row follows base -> complement -> base; every column of a row is the same.
        for j in 0...100 {
            let t = (Double(j) + 0.5) / 101
            let expected = clouds.mixed(with: cloudsComplement, 1 - abs(2 * t - 1))
            expectPixel(image, 10, j, expected, tolerance: 1, "row \(j)")
            #expect(image[10, j] == image[59, j])
        }
        // It does not move.
        #expect(firstDifference(image, try render(text, at: 0.9)) == nil)
    }

    @Test func staticGradientWithExplicitColours() throws {
        let image = try render(layout(style: "gradient", animated: false, appearance: ##"{"gradient": ["#000000", "#FFFFFF"]}"##,
                                      children: [#"{"kind": "image", "frame": [0, 0, 10, 256]}"#]), size: nil)
        for j in stride(from: 0, to: 160, by: 7) {
            expectPixel(image, 5, j, Color(red: UInt8(j), green: UInt8(j), blue: UInt8(j)), tolerance: 1)
        }
    }

    @Test("pulse: tint, complement after 1 s, tint again after 2 s", arguments: [
        (0.0, clouds), (1.0, cloudsComplement), (2.0, clouds), (3.0, cloudsComplement), (0.5, Color(rgb: 0xE5E9EA)),
        (1.5, Color(rgb: 0xE5E9EA)),
    ])
    func pulse(time: Double, colour: Color) throws {
        let image = try render(layout(style: "solid", animated: true), at: time)
        expectPixel(image, 120, 80, colour)
        expectPixel(image, 20, 30, colour)
        expectPixel(image, 219, 129, colour)
        expectPixel(image, 10, 10, .white)
    }

    @Test func pulseFollowsEaseInOut() throws {
        let dark = Color(rgb: 0x202020)
        #expect(dark.complement.hex == "#2B2B2B")
        let strong = layout(style: "solid", animated: true, appearance: ##"{"tint": "#404040"}"##)
        let base = Color(rgb: 0x404040), far = base.complement
        #expect(far.hex == "#565656")
        for time in [0.1, 0.25, 0.4, 0.8, 1.3, 1.9] {
            let p = time <= 1 ? TimingCurve(.easeInOut)(time) : TimingCurve(.easeInOut)(2 - time)
            expectPixel(try render(strong, at: time), 100, 80, base.mixed(with: far, p), tolerance: 0, "at \(time) s")
        }
    }

    @Test func darkSchemeDefaultTint() throws {
        let dark = try render(layout(style: "solid", animated: false, appearance: #"{"scheme": "dark"}"#))
        expectPixel(dark, 100, 80, Color(rgb: 0x1C2325))
        // The same through a command's override, on a light layout.
        let overridden = try render(layout(style: "solid", animated: false), overrides: PresentationOverrides(scheme: .dark))
        expectPixel(overridden, 100, 80, Color(rgb: 0x1C2325))
        // Its gradient is darkClouds and its complement.
        let gradient = try render(layout(style: "gradient", animated: false, appearance: #"{"scheme": "dark"}"#,
                                         children: [#"{"kind": "image", "frame": [0, 0, 20, 101]}"#]))
        expectPixel(gradient, 10, 50, Color(rgb: 0x262F32))
        // An explicit tint wins over the scheme's default.
        let tinted = try render(layout(style: "solid", animated: false, appearance: #"{"scheme": "dark", "tint": "carrot"}"#))
        expectPixel(tinted, 100, 80, Color(rgb: 0xE67E22))
    }

    @Test func overridesChangeStyleAndTint() throws {
        let text = layout(style: "gradient", animated: true)
        let solid = try render(text, at: 0.75, overrides: PresentationOverrides(style: .solid, animated: false))
        #expect(Set((20..<220).map { solid[$0, 80] }) == [clouds.xrgb])
        let tinted = try render(text, at: 0, overrides: PresentationOverrides(tint: Color(rgb: 0x3498DB)))
        expectPixel(tinted, 100, 80, Color(rgb: 0x3498DB))
        // Reduced motion stops the sweep: the static gradient, whatever the time.
        let still = try render(text, at: 0.75, overrides: PresentationOverrides(reducedMotion: true))
        #expect(firstDifference(still, try render(text, at: 0, overrides: PresentationOverrides(animated: false))) == nil)
        #expect(firstDifference(still, try render(text, at: 1.1, overrides: PresentationOverrides(reducedMotion: true))) == nil)
    }

    // MARK: sliding

    /// Where a pixel centre lies along the sweep direction, 0...1 over the frame of reference.
    static func position(_ direction: SlideDirection, _ sx: Double, _ sy: Double) -> Double {
        switch direction {
        case .leftRight: return sx
        case .rightLeft: return 1 - sx
        case .topBottom: return sy
        case .bottomTop: return 1 - sy
        case .topLeftBottomRight: return (sx + sy) / 2
        case .bottomRightTopLeft: return 1 - (sx + sy) / 2
        }
    }

    /// The behaviour reference's sliding colour: the peak stands at -0.5 + 2p along the
    /// direction, the band is one frame long, base outside it.
    static func expectedSliding(_ direction: SlideDirection, x: Int, y: Int, frame: Rect, p: Double, base: Color, peak: Color) -> Color {
        let sx = (Double(x) + 0.5 - frame.x) / frame.width, sy = (Double(y) + 0.5 - frame.y) / frame.height
        let offset = position(direction, sx, sy) - (-0.5 + 2 * p)
        return base.mixed(with: peak, max(0, 1 - 2 * abs(offset)))
    }

    static let shapeFrame = Rect(x: 20, y: 30, width: 200, height: 100)

    @Test("sliding: every interior pixel follows the reference", arguments: SlideDirection.allCases)
    func slidingMatchesTheReference(direction: SlideDirection) throws {
        // Black-white-black makes any error in position show.
        let text = layout(style: "gradient", animated: true, animation: #"{"direction": "\#(direction.rawValue)"}"#,
                          appearance: ##"{"gradient": ["#000000", "#FFFFFF", "#000000"]}"##)
        for p in [0.1, 0.25, 0.5, 0.7, 0.9] {
            let t = time(forProgress: p, curve: TimingCurve(.easeIn), duration: 1.5)
            let image = try render(text, at: t)
            var worst = 0, worstAt = (0, 0)
            for y in 30..<130 {
                for x in 20..<220 {
                    let expected = Self.expectedSliding(direction, x: x, y: y, frame: Self.shapeFrame, p: p, base: .black, peak: .white)
                    let d = distance(image[x, y], expected)
                    if d > worst { worst = d; worstAt = (x, y) }
                }
            }
            #expect(worst <= 1, "\(direction) at p = \(p): off by \(worst) levels at \(worstAt)")
            #expect(image[19, 80] == 0xFFFFFF && image[120, 29] == 0xFFFFFF)
        }
    }

    @Test("sliding: all base at p = 0 and when the sweep wraps", arguments: SlideDirection.allCases)
    func slidingIsSeamless(direction: SlideDirection) throws {
        let text = layout(style: "gradient", animated: true, animation: #"{"direction": "\#(direction.rawValue)"}"#)
        for t in [0.0, 1.5, 3.0, 1.4999] {
            let image = try render(text, at: t)
            let colours = Set((30..<130).flatMap { y in (20..<220).map { x in image[x, y] } })
            if t == 1.4999 {
                #expect(colours.allSatisfy { distance($0, clouds) <= 1 }, "\(direction) at \(t)")
            } else {
                #expect(colours == [clouds.xrgb], "\(direction) at \(t): \(colours.map(hex))")
            }
        }
    }

    @Test("sliding: the complement peak and base outside the band", arguments: SlideDirection.allCases)
    func slidingPeak(direction: SlideDirection) throws {
        let text = layout(style: "gradient", animated: true, animation: #"{"direction": "\#(direction.rawValue)"}"#)
        for p in [0.25, 0.5, 0.75] {
            let t = time(forProgress: p, curve: TimingCurve(.easeIn), duration: 1.5)
            let image = try render(text, at: t)
            var peaks = 0, outside = 0
            for y in 30..<130 {
                for x in 20..<220 {
                    let sx = (Double(x) + 0.5 - 20) / 200, sy = (Double(y) + 0.5 - 30) / 100
                    let offset = abs(Self.position(direction, sx, sy) - (-0.5 + 2 * p))
                    if offset < 0.006 {
                        peaks += 1
                        expectPixel(image, x, y, cloudsComplement, tolerance: 1, "\(direction) p \(p) peak")
                    } else if offset >= 0.5 {
                        outside += 1
                        expectPixel(image, x, y, clouds, tolerance: 0, "\(direction) p \(p) outside the band")
                    }
                }
            }
            #expect(peaks > 0)
            if p != 0.5 { #expect(outside > 0) }
        }
    }

    @Test func leftRightPeakAtTheMiddleColumnWhenProgressIsHalf() throws {
        let t = time(forProgress: 0.5, curve: TimingCurve(.easeIn), duration: 1.5)
        #expect(abs(t - 1.5 * 0.6575) < 1e-3)
        let image = try render(layout(style: "gradient", animated: true, children: [#"{"kind": "image", "frame": [20, 30, 201, 100]}"#]), at: t)
        // Middle column of x = 20...220 is 120.
        expectPixel(image, 120, 80, cloudsComplement)
        expectPixel(image, 20, 80, clouds, tolerance: 1)
        expectPixel(image, 220, 80, clouds, tolerance: 1)
        // Columns darken towards the middle and lighten after it.
        let reds = (20...220).map { channels(image[$0, 80])[0] }
        #expect(reds.min() == Int(cloudsComplement.red))
        #expect(zip(reds, reds.dropFirst()).prefix(100).allSatisfy { $0 >= $1 })
        #expect(zip(reds, reds.dropFirst()).dropFirst(100).allSatisfy { $0 <= $1 })
    }

    @Test func shapeSpaceSweepsEachShapeInItsOwnBounds() throws {
        let text = layout(style: "gradient", animated: true, children: [
            #"{"kind": "image", "frame": [0, 10, 100, 40]}"#, #"{"kind": "image", "frame": [60, 80, 160, 40]}"#,
        ])
        let image = try render(text, at: time(forProgress: 0.5, curve: TimingCurve(.easeIn), duration: 1.5))
        expectPixel(image, 50, 30, cloudsComplement, tolerance: 1)
        expectPixel(image, 140, 100, cloudsComplement, tolerance: 1)
    }

    @Test func screenSpaceSweepIsOneBandAcrossTheCanvas() throws {
        let text = layout(style: "gradient", animated: true, animation: #"{"space": "screen"}"#,
                          appearance: ##"{"gradient": ["#000000", "#FFFFFF", "#000000"]}"##, children: [
            #"{"kind": "image", "frame": [0, 10, 100, 40]}"#, #"{"kind": "image", "frame": [60, 80, 160, 40]}"#,
        ])
        let screen = Rect(x: 0, y: 0, width: 240, height: 160)
        for p in [0.2, 0.5, 0.8] {
            let image = try render(text, at: time(forProgress: p, curve: TimingCurve(.easeIn), duration: 1.5))
            for x in 0..<220 {
                for y in [20, 100] where (y == 20 && x < 100) || (y == 100 && x >= 60) {
                    let expected = Self.expectedSliding(.leftRight, x: x, y: y, frame: screen, p: p, base: .black, peak: .white)
                    expectPixel(image, x, y, expected, tolerance: 1, "screen sweep p \(p)")
                }
            }
            // Both shapes show the same band where they share columns.
            for x in 60..<100 { #expect(image[x, 20] == image[x, 100]) }
        }
        // Screen space also follows a bigger output.
        let big = try render(text, at: time(forProgress: 0.5, curve: TimingCurve(.easeIn), duration: 1.5), size: Size(width: 480, height: 320))
        expectPixel(big, 239, 200, .white, tolerance: 3)
    }

    @Test func staggerDelaysLaterShapes() throws {
        let text = layout(style: "solid", animated: true, animation: #"{"stagger": 0.5}"#, children: [
            #"{"kind": "image", "frame": [0, 0, 50, 50]}"#, #"{"kind": "image", "frame": [100, 0, 50, 50]}"#,
        ])
        let image = try render(text, at: 1)
        expectPixel(image, 25, 25, cloudsComplement)
        expectPixel(image, 125, 25, clouds.mixed(with: cloudsComplement, TimingCurve(.easeInOut)(0.5)))
    }

    @Test func rightToLeftLayoutsDefaultToRightLeft() throws {
        let layout = try loadLayout(#"""
            {"canvas": {"width": 10, "height": 10, "direction": "rtl"}, "presentation": {"style": "gradient", "animated": true},
             "root": {"kind": "view"}}
            """#)
        #expect(layout.direction(for: layout.presentation) == .rightLeft)
        let ltr = try loadLayout(#"{"canvas": {"width": 10, "height": 10}, "root": {"kind": "view"}}"#)
        #expect(ltr.direction(for: ltr.presentation) == .leftRight)
    }
}
