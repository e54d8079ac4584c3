import SkeletonDisplay
import SkeletonRender

/// A DRM output's present on buffers in RAM, with its bookkeeping (`BufferPair`).
final class FlipEmulation {
    let buffers: [PixelBuffer]
    /// How the picture is turned into the buffers (a panel on its side): the renderer then
    /// draws into the shadow only, and the damage is copied turned.
    let rotation: Rotation
    private var pair = BufferPair()

    init(buffers: [PixelBuffer], rotation: Rotation = .upright) {
        self.buffers = buffers
        self.rotation = rotation
    }

    /// What `DRMOutput` does: this frame's damage and the last frame's (the back buffer is two
    /// frames old) are drawn into the shadow and the back buffer at once, and the back buffer is
    /// flipped to.
    func present(_ renderer: FrameRenderer, at time: Double, shadow: Canvas) {
        let back = buffers[pair.back].canvas
        let mirror = rotation == .upright ? pair.backLacks.map { Mirror(canvas: back, lacks: $0) } : nil
        let rects = renderer.render(at: time, into: shadow, mirror: mirror)
        for rect in pair.rectsToCopy(damage: rects, mirrored: mirror != nil, bounds: shadow.bounds) {
            back.copy(rect, from: shadow, turnedBy: rotation)
        }
        pair.backFilled(damage: rects)
        pair.flipped()
    }
}
