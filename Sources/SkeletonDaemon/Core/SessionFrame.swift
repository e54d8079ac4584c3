import SkeletonRender

/// What to draw at one instant: the skeleton (maybe dissolving from a previous look) at an
/// opacity over what was on screen before.
public struct SessionFrame: Sendable, Equatable {
    public var look: SkeletonLook
    /// The look being dissolved away during an update, with `crossfade` the weight of `look`.
    public var previous: SkeletonLook?
    public var crossfade: Double
    /// Skeleton opacity over what lies beneath, 0...1.
    public var opacity: Double
    /// Seconds on the animation clock, which starts when the skeleton appears.
    public var animationTime: Double
    /// A prompt drawn over the skeleton (a password or a question asked at boot).
    public var prompt: PromptPicture?

    /// Nothing is blending: the frame is the look alone, fully opaque.
    public var isSteady: Bool { previous == nil && opacity >= 1 }
}
