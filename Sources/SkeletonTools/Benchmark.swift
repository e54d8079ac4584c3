import SkeletonContent
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// `skeletond bench`: frame costs as ratios to a memcpy of one whole frame measured in the
/// same run, so that a noisy machine still gives comparable figures.
public enum Benchmark {
    public struct Figure: Sendable {
        public var name: String
        public var milliseconds: Double
        public var target: Double?
        /// Another reference to take the ratio to instead of the memcpy of an XRGB8888 frame (a
        /// memcpy of a frame in a framebuffer's layout, an unturned present), and its name.
        public var referenceMilliseconds: Double? = nil
        public var referenceName: String? = nil
    }

    public struct Report: Sendable {
        public var layoutName: String
        public var size: Size
        public var frames: Int
        public var memcpyMilliseconds: Double
        public var figures: [Figure]
        public var damagedShare: Double

        public func ratio(_ figure: Figure) -> Double { figure.milliseconds / (figure.referenceMilliseconds ?? memcpyMilliseconds) }

        public var text: String {
            var lines = ["scene \(layoutName) at \(size), \(frames) frames, medians",
                         "memcpy of one frame            \(memcpyMilliseconds.fixed(3)) ms  (reference)"]
            for f in figures {
                var line = f.name.padding(30) + " " + f.milliseconds.fixed(3) + " ms  " + ratio(f).fixed(2) + "x "
                line += f.referenceName ?? "memcpy"
                if let t = f.target { line += "  (target <= \(t.fixed(1))x: \(ratio(f) <= t ? "met" : "MISSED"))" }
                lines.append(line)
            }
            lines.append("animated frames redraw \((damagedShare * 100).fixed(1)) % of the pixels on average")
            return lines.joined(separator: "\n")
        }

        public var allTargetsMet: Bool { figures.allSatisfy { f in f.target.map { ratio(f) <= $0 } ?? true } }
    }

    /// `format`: also an animated present into a framebuffer of that layout (fbdev), as a ratio
    /// to a memcpy of a frame in that layout.
    public static func run(layout: Layout, size: Size?, frames: Int, format: FramebufferFormat? = nil) -> Report {
        // Pictures and texts drawn as the daemon draws them, made once as the daemon makes them.
        let sprites = ContentSprites()
        let renderer = FrameRenderer(layout: layout, outputSize: size, sprites: sprites)
        let outputSize = renderer.layout.outputSize
        let shadow = PixelBuffer(size: outputSize)
        // The dumb buffers a DRM output flips between, emulated by one second buffer; and, for
        // a figure without target, by two buffers in RAM, whose rows are colder in cache.
        let scanout = PixelBuffer(size: outputSize)
        let emulated = FlipEmulation(buffers: [scanout, scanout])
        let separate = FlipEmulation(buffers: [PixelBuffer(size: outputSize), PixelBuffer(size: outputSize)])
        let source = PixelBuffer(size: outputSize, fill: 0x123456)
        let target = PixelBuffer(size: outputSize)
        let bytes = outputSize.width * outputSize.height * 4
        let frameStep = 1.0 / 60

        var memcpyTimes: [Double] = [], fullTimes: [Double] = [], animatedTimes: [Double] = [], presentTimes: [Double] = []
        var separatePresentTimes: [Double] = []
        var framebufferTimes: [Double] = [], framebufferConvertTimes: [Double] = [], framebufferCopyTimes: [Double] = []
        var damageTimes: [Double] = [], damageFillTimes: [Double] = []
        var damagedPixels = 0
        let clock = ContinuousClock()
        func measure(_ body: () -> Void) -> Double {
            let start = clock.now
            body()
            let d = clock.now - start
            return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        }
        // Warm up caches and page tables of every buffer first.
        renderer.renderFull(at: 0, into: shadow.canvas)
        UnsafeMutableRawPointer(target.canvas.base).copyMemory(from: source.canvas.base, byteCount: bytes)
        for buffer in emulated.buffers + separate.buffers { buffer.canvas.copy(buffer.canvas.bounds, from: shadow.canvas) }

        let presenter = FrameRenderer(layout: layout, outputSize: size, sprites: sprites)
        presenter.renderFull(at: 0, into: shadow.canvas)
        let separatePresenter = FrameRenderer(layout: layout, outputSize: size, sprites: sprites)
        let separateShadow = PixelBuffer(size: outputSize)
        separatePresenter.renderFull(at: 0, into: separateShadow.canvas)
        // A panel on its side: the same scene laid out at the turned size (portrait), its damage
        // turned into landscape buffers; against the same portrait frames presented unturned.
        let portrait = Rotation.clockwise90.turned(outputSize)
        let turnedShadow = PixelBuffer(size: portrait), uprightShadow = PixelBuffer(size: portrait)
        let turnedPresenter = FrameRenderer(layout: layout, outputSize: portrait, sprites: sprites)
        let uprightPresenter = FrameRenderer(layout: layout, outputSize: portrait, sprites: sprites)
        turnedPresenter.renderFull(at: 0, into: turnedShadow.canvas)
        uprightPresenter.renderFull(at: 0, into: uprightShadow.canvas)
        let landscape = PixelBuffer(size: outputSize)
        let turned = FlipEmulation(buffers: [landscape, landscape], rotation: .clockwise90)
        let uprightScanout = PixelBuffer(size: portrait)
        let upright = FlipEmulation(buffers: [uprightScanout, uprightScanout])
        var turnedTimes: [Double] = [], uprightTimes: [Double] = []
        let framebuffer = format.map { FramebufferBench(format: $0, size: outputSize, layout: layout, requestedSize: size) }
        let animated = FrameRenderer(layout: layout, outputSize: size, sprites: sprites)
        let animatedCanvas = PixelBuffer(size: outputSize)
        animated.renderFull(at: 0, into: animatedCanvas.canvas)

        // Each operation runs in blocks of consecutive frames, as a daemon would run it (its
        // working set stays in cache); blocks of the five alternate so drift hits all alike.
        let block = 20
        var frame = 0
        while frame < max(1, frames) {
            let count = min(block, max(1, frames) - frame)
            for _ in 0..<count {
                memcpyTimes.append(measure {
                    UnsafeMutableRawPointer(target.canvas.base).copyMemory(from: source.canvas.base, byteCount: bytes)
                })
            }
            for k in 1...count {
                let t = Double(frame + k) * frameStep
                fullTimes.append(measure { renderer.renderFull(at: t, into: target.canvas) })
                damageTimes.append(measure { _ = renderer.changedRects(from: t - frameStep, to: t) })
                // What a present must write at least: this frame's and the last frame's damage, once.
                let owed = PixelRect.coalesce(renderer.changedRects(from: t - 2 * frameStep, to: t))
                damageFillTimes.append(measure { for rect in owed { scanout.canvas.fill(rect, with: 0x808080) } })
            }
            for k in 1...count {
                let t = Double(frame + k) * frameStep
                animatedTimes.append(measure {
                    let rects = animated.render(at: t, into: animatedCanvas.canvas)
                    damagedPixels += rects.reduce(0) { $0 + $1.area }
                })
            }
            for k in 1...count {
                let t = Double(frame + k) * frameStep
                presentTimes.append(measure { emulated.present(presenter, at: t, shadow: shadow.canvas) })
            }
            for k in 1...count {
                let t = Double(frame + k) * frameStep
                separatePresentTimes.append(measure { separate.present(separatePresenter, at: t, shadow: separateShadow.canvas) })
            }
            for k in 1...count {
                let t = Double(frame + k) * frameStep
                uprightTimes.append(measure { upright.present(uprightPresenter, at: t, shadow: uprightShadow.canvas) })
                turnedTimes.append(measure { turned.present(turnedPresenter, at: t, shadow: turnedShadow.canvas) })
            }
            if let framebuffer {
                for k in 1...count {
                    let t = Double(frame + k) * frameStep
                    framebufferCopyTimes.append(measure { framebuffer.copyWholeFrame() })
                    var damage: [PixelRect] = []
                    let rendering = measure { damage = framebuffer.render(at: t) }
                    let converting = measure { framebuffer.present(damage) }
                    framebufferTimes.append(rendering + converting)
                    framebufferConvertTimes.append(converting)
                }
            }
            frame += count
        }
        return Report(layoutName: layout.name, size: outputSize, frames: frames,
                      memcpyMilliseconds: median(memcpyTimes),
                      figures: [Figure(name: "full redraw", milliseconds: median(fullTimes), target: 1.5),
                                Figure(name: "animated frame, damage only", milliseconds: median(animatedTimes), target: 0.5),
                                Figure(name: "animated frame + present", milliseconds: median(presentTimes), target: 0.5),
                                Figure(name: "  the same, two buffers in RAM", milliseconds: median(separatePresentTimes), target: nil),
                                Figure(name: "  its pixels, one-colour fill", milliseconds: median(damageFillTimes), target: nil),
                                Figure(name: "damage computation alone", milliseconds: median(damageTimes), target: nil),
                                Figure(name: "turned 90° present (portrait)", milliseconds: median(turnedTimes), target: 1.5,
                                       referenceMilliseconds: median(uprightTimes), referenceName: "the unturned present")]
                          + (framebuffer.map { fb in
                              [Figure(name: "animated present into \(fb.format)", milliseconds: median(framebufferTimes), target: nil,
                                      referenceMilliseconds: median(framebufferCopyTimes), referenceName: "memcpy of an \(fb.format) frame"),
                               // A second full pass to convert each frame would cost at least this memcpy (1x) by itself.
                               Figure(name: "  of which converting the damage", milliseconds: median(framebufferConvertTimes), target: 1.0,
                                      referenceMilliseconds: median(framebufferCopyTimes), referenceName: "memcpy of an \(fb.format) frame")]
                          } ?? [])
                          + (contentChangeTimes(layout: layout, size: size, frames: frames, sprites: sprites, measure: measure).map {
                              [Figure(name: "frame, text + bar changed", milliseconds: median($0), target: nil)]
                          } ?? [])
                          + [Figure(name: "logo 600x200 into a 1080p box", milliseconds: median(logoScalingTimes(frames: frames, measure: measure)),
                                    target: nil)],
                      damagedShare: Double(damagedPixels) / Double(max(1, frames) * outputSize.width * outputSize.height))
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
