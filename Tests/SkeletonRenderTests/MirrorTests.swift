import Testing
import SkeletonDisplay
import SkeletonLayout
@testable import SkeletonRender

@Suite("Damage drawn into the back buffer as it is drawn into the shadow")
struct MirrorTests {
    @Test func aRegionDrawnWithAMirrorWritesTheSamePixelsThereAndNothingElse() throws {
        let layout = try loadLayout(DamageTests.scene)
        let renderer = FrameRenderer(layout: layout, outputSize: nil, overrides: PresentationOverrides(style: .gradient, animated: true))
        let size = renderer.layout.outputSize
        let canvas = PixelBuffer(size: size, fill: 0x010203), mirror = PixelBuffer(size: size, fill: 0xABCDEF)
        let region = PixelRect(x: 7, y: 5, width: 61, height: 43)
        renderer.draw(region, at: 0.4, into: canvas.canvas, mirror: mirror.canvas)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let inside = region.contains(PixelRect(x: x, y: y, width: 1, height: 1))
                if inside && mirror[x, y] != canvas[x, y] || !inside && mirror[x, y] != 0xABCDEF {
                    Issue.record("pixel (\(x), \(y)): mirror \(hex(mirror[x, y])), canvas \(hex(canvas[x, y]))")
                    return
                }
            }
        }
    }

    /// Frames presented as `DRMOutput` presents them (this frame's damage and the last frame's
    /// drawn into the back buffer along with the shadow, then a flip): the buffer on screen must
    /// equal the frame drawn whole, every frame.
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
        // Overlapping shapes share regions: those are drawn, then copied into the mirror whole.
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
