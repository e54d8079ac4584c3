import SkeletonLayout
import SkeletonPicture
import SkeletonRender

extension Benchmark {
    /// A 600x200 logo placed in a 1920x1080 box by scaleAspectFit (enlarged 3.2 times,
    /// bilinear), as a picture node's first frame places it; later frames reuse the result.
    /// At most 20 placements: each costs several frames' worth.
    static func logoScalingTimes(frames: Int, measure: (() -> Void) -> Double) -> [Double] {
        let logo = PixelBuffer(width: 600, height: 200)
        let canvas = logo.canvas
        for y in 0..<canvas.height {
            for x in 0..<canvas.width { canvas[x, y] = 0xFF00_0000 | UInt32(truncatingIfNeeded: x &* 7 ^ y &* 13) & 0xFF_FFFF }
        }
        let placement = ContentMode.scaleAspectFit.placement(picture: (canvas.width, canvas.height), box: (1920, 1080))
        // Once unmeasured, as the other figures warm up first.
        _ = PictureScaler.render(logo, into: placement, width: 1920, height: 1080)
        return (0..<max(1, min(frames, 20))).map { _ in
            measure { _ = PictureScaler.render(logo, into: placement, width: 1920, height: 1080) }
        }
    }
}
