import SkeletonLayout

extension FrameRenderer {
    /// A renderer for a layout on an output of `outputSize` (default: the design size), with
    /// command overrides applied to the layout's presentation and appearance.
    public convenience init(layout: Layout, outputSize: Size? = nil, overrides: PresentationOverrides = PresentationOverrides(),
                            reusing other: FrameRenderer? = nil) {
        let presentation = overrides.applied(to: layout.presentation)
        let appearance = overrides.applied(to: layout.appearance)
        var resolver = LayoutResolver(layout: layout, outputSize: outputSize, appearance: appearance,
                                      stagger: presentation.animation.stagger)
        self.init(layout: resolver.resolve(), presentation: presentation, direction: layout.direction(for: presentation), reusing: other)
    }
}
