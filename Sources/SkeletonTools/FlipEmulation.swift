import SkeletonDisplay
import SkeletonRender

/// A DRM output's present on buffers in RAM, with its bookkeeping (`BufferPair`).
final class FlipEmulation {
    let buffers: [PixelBuffer]
    private var pair = BufferPair()

    init(buffers: [PixelBuffer]) { self.buffers = buffers }

    /// What `DRMOutput` does: the damage is drawn into the shadow and the back buffer at once,
    /// then the back buffer gets the rest of the last frame's damage (it is two frames old)
    /// and is flipped to.
    func present(_ renderer: FrameRenderer, at time: Double, shadow: Canvas) {
        let back = buffers[pair.back].canvas
        let mirror = pair.backTakesDamage ? back : nil
        let rects = renderer.render(at: time, into: shadow, mirror: mirror)
        for rect in pair.rectsToCopy(damage: rects, mirrored: mirror != nil, bounds: back.bounds) {
            back.copy(rect, from: shadow)
        }
        pair.backFilled(damage: rects)
        pair.flipped()
    }
}
