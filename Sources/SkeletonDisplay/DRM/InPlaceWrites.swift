import SkeletonRender

/// Which frames go into the buffer on screen instead of being flipped: those whose damage covers
/// at most 1/`share` of the screen (a spinner, a bar's fill, a shape of a few hundred pixels
/// pulsing), as Plymouth writes every frame. A flip costs the kernel an atomic commit and its
/// worker a turn each frame, where a write this small lasts microseconds, too short for the
/// scan-out to show it torn. Larger damage is flipped.
struct InPlaceWrites {
    static let share = 64

    /// The last frame that was not a whole one was small: the next one is drawn in the shadow
    /// (no mirror into the back buffer), so that it can be written in place if it is small too.
    private(set) var expectsSmall = false

    /// Whether a frame with `damage` on a screen of `bounds` is small, remembered as the guess
    /// for the next frame unless it is a whole one (the first frame without the mirror is drawn
    /// whole from the shadow, which says nothing of the frames to come).
    mutating func isSmall(_ damage: [PixelRect], in bounds: PixelRect) -> Bool {
        let small = damage.reduce(0) { $0 + $1.width * $1.height } * Self.share <= bounds.width * bounds.height
        if !damage.contains(bounds) { expectsSmall = small }
        return small
    }
}
