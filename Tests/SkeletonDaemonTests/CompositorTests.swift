import SkeletonProtocol
import SkeletonDaemon
import SkeletonSettings
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import Testing

/// Frame-exact checks of what the daemon puts on an output, against the offline renderer
/// (the same pictures `skeletond render` writes).
@Suite struct CompositorTests {
    let look = SkeletonLook(layoutName: "simple", layout: TestLayouts.simple)

    /// A compositor on a two-buffer output, and beside it one drawing the same frames into one
    /// buffer in memory through the shadow alone.
    func flippedBesidePlain(size: Size = Size(width: 200, height: 100))
        -> (output: FlipOutput, compositor: OutputCompositor, plain: MemoryDisplay, plainCompositor: OutputCompositor) {
        let output = FlipOutput(size: size)
        let plain = MemoryDisplay(size: size)
        return (output, OutputCompositor(output: output), plain, OutputCompositor(output: plain))
    }

    func reference(_ look: SkeletonLook, at time: Double, size: Size = Size(width: 200, height: 100)) -> PixelBuffer {
        let renderer = FrameRenderer(layout: look.layout, outputSize: size, overrides: look.overrides)
        let image = PixelBuffer(size: size)
        renderer.renderFull(at: time, into: image.canvas)
        return image
    }

    @Test func steadyFramesMatchTheOfflineRendererFrameByFrame() {
        let display = MemoryDisplay(size: Size(width: 200, height: 100))
        let compositor = OutputCompositor(output: display)
        var session = Session()
        _ = session.show(look, delay: 0, transition: .none, now: 100)
        for frame in 0..<100 {
            let now = 100 + Double(frame) / 60
            let damage = compositor.draw(session.frame(at: now))
            if frame > 0 { #expect(damage.allSatisfy { $0.area < 200 * 100 }, "steady frames redraw only what changed") }
            #expect(display.buffer.pixels == reference(look, at: now - 100).pixels, "frame \(frame)")
        }
    }

    @Test func showDissolvesOverBlack() {
        let display = MemoryDisplay(size: Size(width: 200, height: 100))
        let compositor = OutputCompositor(output: display)
        var session = Session()
        var still = look
        still.overrides.animated = false
        _ = session.show(still, delay: 0, transition: .crossDissolve(duration: 0.5), now: 0)
        compositor.draw(session.frame(at: 0))
        #expect(display.buffer.pixels.allSatisfy { $0 == 0 }, "opacity 0 shows what was beneath")
        compositor.draw(session.frame(at: 0.25))
        let full = reference(still, at: 0.25)
        // Half way: each channel is half of the skeleton's (over black), rounded.
        for (x, y) in [(100, 50), (5, 5), (30, 50)] {
            let p = display.buffer[x, y], q = full[x, y]
            for shift: UInt32 in [0, 8, 16] {
                let expected = Int(((Double((q >> shift) & 0xFF) * 128) / 255).rounded())
                #expect(abs(Int((p >> shift) & 0xFF) - expected) <= 1, "pixel \(x),\(y)")
            }
        }
        compositor.draw(session.frame(at: 0.5))
        #expect(display.buffer.pixels == reference(still, at: 0.5).pixels)
    }

    @Test func styleChangeDissolvesThenSettlesOnTheNewStyle() {
        let display = MemoryDisplay(size: Size(width: 200, height: 100))
        let compositor = OutputCompositor(output: display)
        var session = Session()
        var solid = look
        solid.overrides = PresentationOverrides(style: .solid, animated: false)
        _ = session.show(solid, delay: 0, transition: .none, now: 0)
        compositor.draw(session.frame(at: 0))
        var gradient = solid
        gradient.overrides.style = .gradient
        session.update(gradient, transition: .default, now: 1)
        compositor.draw(session.frame(at: 1))
        #expect(display.buffer.pixels == reference(solid, at: 1).pixels, "the dissolve starts from the old style")
        compositor.draw(session.frame(at: 1.125))
        let middle = display.buffer.pixels
        #expect(middle != reference(solid, at: 1.125).pixels && middle != reference(gradient, at: 1.125).pixels)
        _ = session.advance(to: 1.25)
        compositor.draw(session.frame(at: 1.25))
        #expect(display.buffer.pixels == reference(gradient, at: 1.25).pixels)
    }

    @Test func hideEndsOnWhatWasBeneath() {
        let display = MemoryDisplay(size: Size(width: 200, height: 100))
        let compositor = OutputCompositor(output: display)
        var session = Session()
        _ = session.show(look, delay: 0, transition: .none, now: 0)
        compositor.draw(session.frame(at: 0))
        _ = session.hide(transition: .crossDissolve(duration: 0.25), retain: false, now: 1)
        compositor.draw(session.frame(at: 1.1))
        #expect(display.buffer.pixels.contains { $0 != 0 })
        _ = session.advance(to: 1.25)
        compositor.draw(session.frame(at: 1.25))
        #expect(display.buffer.pixels.allSatisfy { $0 == 0 })
    }

    @Test func scaledOutputMatchesRenderAtThatSize() {
        let size = Size(width: 320, height: 240)
        let display = MemoryDisplay(size: size)
        let compositor = OutputCompositor(output: display)
        var session = Session()
        _ = session.show(look, delay: 0, transition: .none, now: 0)
        compositor.draw(session.frame(at: 0.7))
        #expect(display.buffer.pixels == reference(look, at: 0.7, size: size).pixels)
    }

    @Test func aDoubleBufferedOutputShowsEveryFrameThroughShowUpdateAndHide() throws {
        let (output, compositor, plain, plainCompositor) = flippedBesidePlain()
        var session = Session()
        _ = session.show(look, delay: 0, transition: .crossDissolve(duration: 0.25), now: 0)
        var tinted = look
        tinted.overrides.tint = Color(red: 0x40, green: 0x80, blue: 0xC0)
        for frame in 0..<150 {
            let now = Double(frame) / 60
            if frame == 60 {
                let updated = session.update(tinted, transition: .default, now: now)
                #expect(updated)
            }
            if frame == 120 { _ = session.hide(transition: .crossDissolve(duration: 0.25), retain: false, now: now) }
            _ = session.advance(to: now)
            #expect(try compositor.present(session.frame(at: now)))
            plainCompositor.draw(session.frame(at: now))
            if output.screen.pixels != plain.buffer.pixels {
                Issue.record("frame \(frame): the buffer on screen is not the frame drawn")
                return
            }
        }
        // Steady frames between the transitions went straight into the back buffer.
        #expect(output.mirroredPresents > 60)
    }

    @Test func theShadowCatchesUpWhenFramesStopGoingStraightIntoTheBackBuffer() throws {
        let (output, compositor, plain, plainCompositor) = flippedBesidePlain()
        var session = Session()
        _ = session.show(look, delay: 0, transition: .none, now: 0)
        // A shadow left behind differs from the frame only where the sweep's band was then and
        // is not now (the gradient's ends are the shape's colour): it is left behind from
        // mid-sweep, after the prompt, until the failed flip and again until the end.
        for frame in 0..<90 {
            let now = Double(frame) / 60
            var shown = session.frame(at: now)
            // A prompt (drawn in the shadow, which holds whole frames then), and a failed flip
            // (both buffers stale: the next present copies the shadow whole).
            if (40..<45).contains(frame) { shown?.prompt = PromptPicture(message: "Passphrase:") }
            if frame == 70 { output.pair.invalidate() }
            #expect(try compositor.present(shown))
            plainCompositor.draw(shown)
            if output.screen.pixels != plain.buffer.pixels {
                Issue.record("frame \(frame): the buffer on screen is not the frame drawn")
                return
            }
        }
        #expect(output.mirroredPresents > 75)
        // `hide --retain`: what a later show dissolves from is the frame on screen.
        compositor.keepShadowAsBeneath()
        let beneathIsTheFrame = compositor.beneath.pixels == plain.buffer.pixels
        #expect(beneathIsTheFrame)
    }
}

/// Two buffers flipped in turn at once, with the bookkeeping `DRMOutput` uses.
final class FlipOutput: DisplayOutput {
    let name = "FLIP-1"
    let size: Size
    let shadowBuffer: PixelBuffer
    let buffers: [PixelBuffer]
    var pair = BufferPair()
    var mirroredPresents = 0
    var framesPresented = 0

    init(size: Size) {
        self.size = size
        shadowBuffer = PixelBuffer(size: size)
        buffers = [PixelBuffer(size: size, fill: 0xFF00FF), PixelBuffer(size: size, fill: 0x00FF00)]
    }

    var shadow: Canvas { shadowBuffer.canvas }
    var canPresent: Bool { true }
    var status: OutputStatus { OutputStatus() }
    var screen: PixelBuffer { buffers[pair.front] }
    var mirror: Mirror? { pair.backLacks.map { Mirror(canvas: buffers[pair.back].canvas, lacks: $0) } }

    func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        let back = buffers[pair.back].canvas
        for rect in pair.rectsToCopy(damage: damage, mirrored: mirrored, bounds: back.bounds) { back.copy(rect, from: shadow) }
        pair.backFilled(damage: damage)
        pair.flipped()
        if mirrored { mirroredPresents += 1 }
        framesPresented += 1
        return true
    }
}
