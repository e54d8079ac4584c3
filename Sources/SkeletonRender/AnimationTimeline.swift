import SkeletonLayout

/// The progress of a repeating skeleton animation over time, with the style's defaults
/// (`AnimationSpec.duration(for:)` and its siblings).
public struct AnimationTimeline: Sendable, Hashable {
    public let duration: Double
    public let curve: TimingCurve
    public let autoreverse: Bool
    public let pause: Double

    public init(style: SkeletonStyle, animation: AnimationSpec) {
        duration = animation.duration(for: style)
        curve = TimingCurve(animation.timing(for: style))
        autoreverse = animation.autoreverse(for: style)
        pause = animation.pause
    }

    /// One whole repetition: the sweep, its reverse if any, and the pause.
    public var period: Double { duration * (autoreverse ? 2 : 1) + pause }

    /// Eased progress in 0...1 at `time` seconds after the animation started (before: 0).
    public func progress(at time: Double) -> Double {
        guard time > 0 else { return 0 }
        var local = time.truncatingRemainder(dividingBy: period)
        if local < 0 { local += period }
        if local < duration { return curve(local / duration) }
        if autoreverse && local < 2 * duration { return curve((2 * duration - local) / duration) }
        return autoreverse ? 0 : 1
    }
}
