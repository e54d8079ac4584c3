/// Changes a command makes to a layout's presentation and appearance (`show`/`update`
/// overrides, `render` flags). Nil fields keep what is in force.
public struct PresentationOverrides: Sendable, Hashable {
    public var style: SkeletonStyle?
    public var animated: Bool?
    public var direction: SlideDirection?
    public var duration: Double?
    public var timing: TimingCurveName?
    public var autoreverse: Bool?
    public var pause: Double?
    public var space: SweepSpace?
    public var stagger: Double?
    public var reducedMotion: Bool?
    public var tint: Color?
    public var gradient: GradientSpec?
    public var scheme: ColorScheme?

    public init(style: SkeletonStyle? = nil, animated: Bool? = nil, direction: SlideDirection? = nil,
                duration: Double? = nil, timing: TimingCurveName? = nil, autoreverse: Bool? = nil, pause: Double? = nil,
                space: SweepSpace? = nil, stagger: Double? = nil, reducedMotion: Bool? = nil, tint: Color? = nil,
                gradient: GradientSpec? = nil, scheme: ColorScheme? = nil) {
        self.style = style
        self.animated = animated
        self.direction = direction
        self.duration = duration
        self.timing = timing
        self.autoreverse = autoreverse
        self.pause = pause
        self.space = space
        self.stagger = stagger
        self.reducedMotion = reducedMotion
        self.tint = tint
        self.gradient = gradient
        self.scheme = scheme
    }

    public var isEmpty: Bool { self == PresentationOverrides() }

    public func applied(to p: Presentation) -> Presentation {
        var p = p
        if let style { p.style = style }
        if let animated { p.animated = animated }
        if let direction { p.animation.direction = direction }
        if let duration { p.animation.duration = duration }
        if let timing { p.animation.timing = timing }
        if let autoreverse { p.animation.autoreverse = autoreverse }
        if let pause { p.animation.pause = pause }
        if let space { p.animation.space = space }
        if let stagger { p.animation.stagger = stagger }
        if let reducedMotion { p.reducedMotion = reducedMotion }
        return p
    }

    /// A new tint replaces the gradient too, unless a gradient is given alongside it.
    public func applied(to a: Appearance) -> Appearance {
        var a = a
        if let scheme { a.scheme = scheme; if tint == nil && a.tint == nil { a.gradient = nil } }
        Self.apply(tint: tint, gradient: gradient, to: &a.tint, &a.gradient)
        return a
    }

    /// Later overrides win field by field.
    public func merged(with later: PresentationOverrides) -> PresentationOverrides {
        var m = self
        if let v = later.style { m.style = v }
        if let v = later.animated { m.animated = v }
        if let v = later.direction { m.direction = v }
        if let v = later.duration { m.duration = v }
        if let v = later.timing { m.timing = v }
        if let v = later.autoreverse { m.autoreverse = v }
        if let v = later.pause { m.pause = v }
        if let v = later.space { m.space = v }
        if let v = later.stagger { m.stagger = v }
        if let v = later.reducedMotion { m.reducedMotion = v }
        Self.apply(tint: later.tint, gradient: later.gradient, to: &m.tint, &m.gradient)
        if let v = later.scheme { m.scheme = v }
        return m
    }

    /// The rule for both overrides on a layout and overrides on overrides: a tint replaces
    /// the gradient in force, unless a gradient comes with it.
    private static func apply(tint: Color?, gradient: GradientSpec?, to currentTint: inout Color?, _ currentGradient: inout GradientSpec?) {
        if let tint {
            currentTint = tint
            currentGradient = nil
        }
        if let gradient { currentGradient = gradient }
    }
}

extension Layout {
    /// The sliding direction for a presentation: as given, else rightLeft in right-to-left layouts.
    public func direction(for presentation: Presentation) -> SlideDirection {
        presentation.animation.direction ?? (canvas.direction == .rtl ? .rightLeft : .leftRight)
    }
}
