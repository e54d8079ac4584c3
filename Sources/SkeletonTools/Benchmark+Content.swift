import SkeletonLayout
import SkeletonRender

extension Benchmark {
    /// For a layout with a message label and a progress bar (kiosk-splash): the cost of an
    /// animated frame in which both change, as the daemon draws it: the layout placed again with
    /// the new content, a renderer taking over the last frame (`continueFrom`), the new text
    /// shaped and drawn, and only the damage redrawn. Nil for a layout without both roles.
    static func contentChangeTimes(layout: Layout, size: Size?, frames: Int, sprites: SpriteSource,
                                   measure: (() -> Void) -> Double) -> [Double]? {
        let targets = ContentTargets(layout)
        guard let message = targets.roles[.message]?.first, let bar = targets.roles[.progress]?.first else { return nil }
        var previous = FrameRenderer(layout: layout, outputSize: size, sprites: sprites)
        let canvas = PixelBuffer(size: previous.layout.outputSize)
        previous.renderFull(at: 0, into: canvas.canvas)
        let count = max(1, frames)
        var times: [Double] = []
        for k in 1...count {
            let t = Double(k) / 60
            let content = LayoutContent(texts: [message: "Installing package \(k) of \(count)"],
                                        values: [bar: .fraction(Double(k) / Double(count))])
            times.append(measure {
                let next = FrameRenderer(layout: layout, outputSize: size, content: content, reusing: previous, sprites: sprites)
                if !next.continueFrom(previous) { next.invalidate() }
                _ = next.render(at: t, into: canvas.canvas)
                previous = next
            })
        }
        return times
    }
}
