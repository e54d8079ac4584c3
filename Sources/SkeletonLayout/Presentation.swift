/// How skeleton shapes are filled: one colour, or a gradient.
public enum SkeletonStyle: String, Sendable, CaseIterable {
    case solid, gradient
}

/// The six sliding directions of SkeletonView's `GradientDirection`.
public enum SlideDirection: String, Sendable, CaseIterable {
    case leftRight, rightLeft, topBottom, bottomTop, topLeftBottomRight, bottomRightTopLeft
}

/// Core Animation's named timing functions.
public enum TimingCurveName: String, Sendable, CaseIterable {
    case linear, easeIn, easeOut, easeInOut
}

/// Whether a sliding band is measured in each shape's own bounds or across the whole screen.
public enum SweepSpace: String, Sendable, CaseIterable {
    case shape, screen
}

/// The animation parameters; nil fields take the style's default (sliding: 1.5 s, easeIn,
/// no auto-reverse; pulse: 1 s each way, easeInOut, auto-reverse).
public struct AnimationSpec: Sendable, Hashable {
    public var direction: SlideDirection?
    public var duration: Double?
    public var timing: TimingCurveName?
    public var autoreverse: Bool?
    public var pause: Double
    public var space: SweepSpace
    /// Extra delay per skeleton shape, in drawing order, so the shimmer ripples down the screen.
    public var stagger: Double

    public init(direction: SlideDirection? = nil, duration: Double? = nil, timing: TimingCurveName? = nil,
                autoreverse: Bool? = nil, pause: Double = 0, space: SweepSpace = .shape, stagger: Double = 0) {
        self.direction = direction
        self.duration = duration
        self.timing = timing
        self.autoreverse = autoreverse
        self.pause = pause
        self.space = space
        self.stagger = stagger
    }
}

/// A show or hide transition.
public enum TransitionSpec: Sendable, Hashable {
    case none
    case crossDissolve(duration: Double)

    public static let defaultCrossDissolveDuration = 0.25
    public static let `default` = TransitionSpec.crossDissolve(duration: defaultCrossDissolveDuration)

    public var duration: Double {
        if case .crossDissolve(let d) = self { return d }
        return 0
    }
}

/// What `show` uses unless a command overrides it.
public struct Presentation: Sendable, Hashable {
    public var style: SkeletonStyle
    public var animated: Bool
    public var animation: AnimationSpec
    public var transition: TransitionSpec
    /// One switch that stops all movement whatever `animated` says.
    public var reducedMotion: Bool

    public init(style: SkeletonStyle = .solid, animated: Bool = false, animation: AnimationSpec = AnimationSpec(),
                transition: TransitionSpec = .default, reducedMotion: Bool = false) {
        self.style = style
        self.animated = animated
        self.animation = animation
        self.transition = transition
        self.reducedMotion = reducedMotion
    }

    /// True when frames differ over time.
    public var moves: Bool { animated && !reducedMotion }
}
