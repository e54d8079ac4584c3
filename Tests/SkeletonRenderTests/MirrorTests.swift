import Testing
import SkeletonDisplay
import SkeletonLayout
@testable import SkeletonRender

@Suite("Damage drawn straight into the back buffer, the shadow left behind")
struct MirrorTests {
    /// Shapes apart from one another at fractional positions, with a translucent tint: edges
    /// and partly covered rows blend over the background in every region.
    static let separateTranslucentScene = layoutJSON(
        width: 120, height: 70, background: "#203040",
        extra: ##""appearance": {"tint": "#FFFFFF80"}, "presentation": {"style": "gradient", "animated": true}"##,
        children: [
            #"{"kind": "image", "frame": [4.5, 5.25, 50, 24.5], "cornerRadius": 7}"#,
            #"{"kind": "image", "frame": [60.25, 5, 40, 24], "cornerRadius": 3}"#,
            #"{"kind": "image", "frame": [8, 36.5, 26, 26], "shape": "circle"}"#,
            #"{"kind": "image", "frame": [40, 38, 75.75, 12], "cornerRadius": 6}"#,
        ])

    /// Each region drawn into a target (with a shadow beside it) must put there the pixels a
    /// plain draw puts, and nothing outside the region; and the target starts as garbage, so
    /// nothing it held may show through.
    func expectTargetMatchesPlainDraw(_ json: String, overrides: PresentationOverrides, size: Size? = nil,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let layout = try loadLayout(json, sourceLocation: sourceLocation)
        let renderer = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let outputSize = renderer.layout.outputSize
        let w = outputSize.width, h = outputSize.height
        var regions = [PixelRect(x: 0, y: 0, width: w, height: h), PixelRect(x: 7, y: 5, width: 61, height: 43),
                       PixelRect(x: w / 3, y: 0, width: 1, height: h), PixelRect(x: 0, y: h / 2, width: w, height: 1)]
        for k in 0..<24 {
            regions.append(PixelRect(x: (k * 37) % w, y: (k * 23) % h, width: 3 + (k * 29) % (w / 2), height: 2 + (k * 13) % (h / 2)))
        }
        for (k, region) in regions.enumerated() {
            let t = 0.1 + Double(k) * 0.13
            let plain = PixelBuffer(size: outputSize, fill: 0x010203)
            let target = PixelBuffer(size: outputSize, fill: 0xABCDEF), shadow = PixelBuffer(size: outputSize, fill: 0x123456)
            renderer.draw(region, at: t, into: plain.canvas)
            renderer.draw(region, at: t, into: target.canvas, shadow: shadow.canvas)
            let clipped = region.intersection(plain.canvas.bounds)
            for y in 0..<h {
                for x in 0..<w {
                    let inside = clipped.contains(PixelRect(x: x, y: y, width: 1, height: 1))
                    if inside && target[x, y] != plain[x, y] || !inside && target[x, y] != 0xABCDEF {
                        Issue.record("region \(region) at \(t) s, pixel (\(x), \(y)): target \(hex(target[x, y])), plain draw \(hex(plain[x, y]))",
                                     sourceLocation: sourceLocation)
                        return
                    }
                }
            }
        }
    }

    @Test("a region drawn into a target equals a plain draw", arguments: [SkeletonStyle.solid, .gradient])
    func targetEqualsPlainDraw(style: SkeletonStyle) throws {
        for direction in [SlideDirection.leftRight, .topBottom, .bottomRightTopLeft] {
            let overrides = PresentationOverrides(style: style, animated: true, direction: direction)
            try expectTargetMatchesPlainDraw(DamageTests.scene, overrides: overrides)
            try expectTargetMatchesPlainDraw(DamageTests.scene, overrides: overrides, size: Size(width: 333, height: 207))
            try expectTargetMatchesPlainDraw(Self.separateTranslucentScene, overrides: overrides)
            try expectTargetMatchesPlainDraw(Self.separateTranslucentScene, overrides: overrides, size: Size(width: 171, height: 97))
            try expectTargetMatchesPlainDraw(overlappingTranslucentScene, overrides: overrides)
        }
    }

    @Test func shapesApartAreDrawnPastTheShadowAndOverlappingOnesThroughIt() throws {
        let renderer = FrameRenderer(layout: try loadLayout(Self.separateTranslucentScene), outputSize: nil,
                                     overrides: PresentationOverrides())
        let size = renderer.layout.outputSize
        let target = PixelBuffer(size: size), shadow = PixelBuffer(size: size, fill: 0x123456)
        // Two shapes side by side, the background between them and around them.
        renderer.draw(PixelRect(x: 0, y: 0, width: 120, height: 34), at: 0.3, into: target.canvas, shadow: shadow.canvas)
        // The background alone.
        renderer.draw(PixelRect(x: 0, y: 64, width: 120, height: 6), at: 0.3, into: target.canvas, shadow: shadow.canvas)
        #expect(shadow.pixels.allSatisfy { $0 == 0x123456 })

        let overlapping = FrameRenderer(layout: try loadLayout(overlappingTranslucentScene), outputSize: nil,
                                        overrides: PresentationOverrides())
        let region = PixelRect(x: 25, y: 15, width: 30, height: 30)
        let other = PixelBuffer(size: overlapping.layout.outputSize, fill: 0x123456)
        overlapping.draw(region, at: 0.3, into: PixelBuffer(size: overlapping.layout.outputSize).canvas, shadow: other.canvas)
        #expect(other[30, 35] != 0x123456, "shapes that overlap are composed in the shadow")
    }

    @Test func aTargetWithAPitchWiderThanItsRowsIsDrawnAlikeAndKeepsItsPadding() throws {
        let renderer = FrameRenderer(layout: try loadLayout(Self.separateTranslucentScene), outputSize: nil,
                                     overrides: PresentationOverrides())
        let size = renderer.layout.outputSize
        let stride = size.width + 13
        let memory = PixelBuffer(width: stride, height: size.height, fill: 0x777777)
        let target = Canvas(base: memory.canvas.base, width: size.width, height: size.height, stride: stride)
        let shadow = PixelBuffer(size: size), plain = PixelBuffer(size: size)
        renderer.draw(target.bounds, at: 0.4, into: plain.canvas)
        renderer.draw(target.bounds, at: 0.4, into: target, shadow: shadow.canvas)
        for y in 0..<size.height {
            for x in 0..<stride where memory[x, y] != (x < size.width ? plain[x, y] : 0x777777) {
                Issue.record("pixel (\(x), \(y)) of the buffer is \(hex(memory[x, y]))")
                return
            }
        }
    }

    @Test func aRectangleLessHolesIsCoveredOnceWhereNoHoleIs() {
        let rect = PixelRect(x: 3, y: 2, width: 40, height: 30)
        let holeSets: [[PixelRect]] = [
            [],
            [rect],
            [PixelRect(x: 0, y: 0, width: 10, height: 10)],
            [PixelRect(x: 5, y: 5, width: 10, height: 10), PixelRect(x: 20, y: 8, width: 10, height: 30)],
            [PixelRect(x: 3, y: 2, width: 20, height: 30), PixelRect(x: 23, y: 2, width: 20, height: 30)],
            [PixelRect(x: 10, y: 10, width: 5, height: 5), PixelRect(x: 30, y: 12, width: 3, height: 2), PixelRect(x: 50, y: 0, width: 5, height: 5)],
        ]
        for holes in holeSets {
            let parts = rect.subtracting(holes)
            for y in rect.y - 1...rect.maxY {
                for x in rect.x - 1...rect.maxX {
                    let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
                    let expected = rect.contains(pixel) && !holes.contains { $0.contains(pixel) } ? 1 : 0
                    let covered = parts.filter { $0.contains(pixel) }.count
                    if covered != expected {
                        Issue.record("holes \(holes): pixel (\(x), \(y)) covered \(covered) times, expected \(expected)")
                        return
                    }
                }
            }
        }
    }

    /// Frames presented as `DRMOutput` presents them (this frame's damage and the last frame's
    /// drawn straight into the back buffer, then a flip): the buffer on screen must equal the
    /// frame drawn whole, every frame.
    func expectFlipChainShowsEveryFrame(_ json: String, overrides: PresentationOverrides, size: Size? = nil, frames: Int = 40,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        let layout = try loadLayout(json, sourceLocation: sourceLocation)
        let renderer = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let reference = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let outputSize = renderer.layout.outputSize
        let shadow = PixelBuffer(size: outputSize), whole = PixelBuffer(size: outputSize)
        let buffers = [PixelBuffer(size: outputSize, fill: 0xFF00FF), PixelBuffer(size: outputSize, fill: 0x00FF00)]
        var pair = BufferPair()
        var mirrored = 0
        for frame in 0..<frames {
            let t = 0.1 + Double(frame) / 30
            let back = buffers[pair.back].canvas
            let mirror = pair.backLacks.map { Mirror(canvas: back, lacks: $0) }
            let damage = renderer.render(at: t, into: shadow.canvas, mirror: mirror)
            for rect in pair.rectsToCopy(damage: damage, mirrored: mirror != nil, bounds: back.bounds) {
                back.copy(rect, from: shadow.canvas)
            }
            pair.backFilled(damage: damage)
            pair.flipped()
            if mirror != nil { mirrored += 1 }
            reference.renderFull(at: t, into: whole.canvas)
            if let d = firstDifference(buffers[pair.front], whole) {
                let shown = buffers[pair.front][d.x, d.y]
                Issue.record("frame \(frame) at \(t) s: pixel (\(d.x), \(d.y)) on screen \(hex(shown)), drawn whole \(hex(whole[d.x, d.y]))",
                             sourceLocation: sourceLocation)
                return
            }
        }
        // The first two frames fill each buffer whole; all the others go through the mirror.
        #expect(mirrored == frames - 2, sourceLocation: sourceLocation)
    }

    @Test("a flip chain shows every frame", arguments: [SkeletonStyle.solid, .gradient])
    func flipChain(style: SkeletonStyle) throws {
        for direction in [SlideDirection.leftRight, .rightLeft, .topBottom, .bottomRightTopLeft] {
            let overrides = PresentationOverrides(style: style, animated: true, direction: direction)
            try expectFlipChainShowsEveryFrame(DamageTests.scene, overrides: overrides)
            try expectFlipChainShowsEveryFrame(DamageTests.scene, overrides: overrides, size: Size(width: 333, height: 207), frames: 20)
        }
    }

    @Test func aFlipChainWithOverlappingTranslucentShapes() throws {
        // Overlapping shapes share regions: those are drawn in the shadow, then copied into the mirror.
        try expectFlipChainShowsEveryFrame(overlappingTranslucentScene, overrides: PresentationOverrides())
        try expectFlipChainShowsEveryFrame(overlappingTranslucentScene, overrides: PresentationOverrides(style: .solid))
    }

    @Test func coalescingCoversEveryInputPixelAndMergesOnlyWhereLittleIsWasted() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        // Overlapping, touching, contained, far apart, empty.
        #expect(PixelRect.coalesce([a, PixelRect(x: 5, y: 2, width: 10, height: 8)]) == [PixelRect(x: 0, y: 0, width: 15, height: 10)])
        #expect(PixelRect.coalesce([PixelRect(x: 10, y: 0, width: 10, height: 10), a]) == [PixelRect(x: 0, y: 0, width: 20, height: 10)])
        #expect(PixelRect.coalesce([a, PixelRect(x: 2, y: 2, width: 3, height: 3)]) == [a])
        #expect(PixelRect.coalesce([a, PixelRect(x: 50, y: 0, width: 10, height: 10)]).count == 2)
        #expect(PixelRect.coalesce([a, PixelRect(x: 3, y: 3, width: 0, height: 9)]) == [a])
        // A gap of an eighth of the two areas merges; a wider one does not.
        #expect(PixelRect.coalesce([a, PixelRect(x: 12, y: 0, width: 10, height: 10)]).count == 1)
        #expect(PixelRect.coalesce([a, PixelRect(x: 13, y: 0, width: 10, height: 10)]).count == 2)
        // Many bands, as a frame's damage and the last frame's: every input pixel stays covered.
        var input: [PixelRect] = []
        for k in 0..<30 {
            input.append(PixelRect(x: (k * 37) % 200, y: (k * 53) % 150, width: 5 + (k * 11) % 60, height: 3 + (k * 7) % 40))
        }
        let merged = PixelRect.coalesce(input)
        #expect(merged.count < input.count)
        for rect in input {
            for y in rect.y..<rect.maxY {
                for x in rect.x..<rect.maxX where !merged.contains(where: { $0.contains(PixelRect(x: x, y: y, width: 1, height: 1)) }) {
                    Issue.record("pixel (\(x), \(y)) of \(rect) is not covered")
                    return
                }
            }
        }
    }
}
