import SkeletonLayout

/// Shapes' animation progress at one time, worked out once per distinct delay: the shapes of
/// a layout mostly share a delay (all of them without a stagger), and the timing curve is
/// solved numerically.
struct ProgressMemo {
    let time: Double
    private var last: (delay: Double, progress: Double)?

    init(time: Double) { self.time = time }

    mutating func progress(of shape: SkeletonShape, _ animator: ShapeAnimator) -> Double {
        if let last, last.delay == shape.delay { return last.progress }
        let p = animator.progress(of: shape, at: time)
        last = (shape.delay, p)
        return p
    }
}
