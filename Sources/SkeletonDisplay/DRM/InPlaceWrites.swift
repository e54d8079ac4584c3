import SkeletonRender

/// Which frames go into the buffer on screen instead of being flipped: those whose damage covers
/// at most 1/`share` of the screen (a spinner, a bar's fill, a shape of a few hundred pixels
/// pulsing), as Plymouth writes every frame. A flip costs the kernel an atomic commit and its
/// worker a turn each frame, where a write this small lasts microseconds, too short for the
/// scan-out to show it torn. Larger damage is flipped.
struct InPlaceWrites {
    static let share = 64
    /// Small frames in a row before the next is expected small too.
    static let settle = 4

    /// Small frames in a row, whole frames left out (the first frame without the mirror is drawn
    /// whole from the shadow, which says nothing of the frames to come).
    private var smallInARow = 0

    /// The next frame is drawn in the shadow (no mirror into the back buffer), so that it can be
    /// written in place if it is small. Leaving the mirror costs one whole frame (the shadow
    /// lags behind the back buffer), so a few small frames between large ones (a shimmer's band
    /// between two rows of shapes) do not.
    var expectsSmall: Bool { smallInARow >= Self.settle }

    /// Whether a frame with `damage` on a screen of `bounds` is small; counted for the guess.
    mutating func isSmall(_ damage: [PixelRect], in bounds: PixelRect) -> Bool {
        let small = damage.reduce(0) { $0 + $1.width * $1.height } * Self.share <= bounds.width * bounds.height
        if !damage.contains(bounds) { smallInARow = small ? smallInARow + 1 : 0 }
        return small
    }
}
