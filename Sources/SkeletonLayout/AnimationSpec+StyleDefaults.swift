extension AnimationSpec {
    /// The one place the style's defaults live (behaviour reference): sliding (gradient) 1.5 s
    /// ease-in without auto-reverse; pulse (solid) 1 s each way ease-in-out.
    public func duration(for style: SkeletonStyle) -> Double { duration ?? (style == .solid ? 1 : 1.5) }
    public func timing(for style: SkeletonStyle) -> TimingCurveName { timing ?? (style == .solid ? .easeInOut : .easeIn) }
    public func autoreverse(for style: SkeletonStyle) -> Bool { autoreverse ?? (style == .solid) }
}
