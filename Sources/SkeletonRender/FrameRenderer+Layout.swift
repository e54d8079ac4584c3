import SkeletonLayout

extension FrameRenderer {
    /// A renderer for a layout on an output of `outputSize` (default: the design size), with
    /// command overrides applied to the layout's presentation and appearance, and commands'
    /// content over the layout's own.
    public convenience init(layout: Layout, outputSize: Size? = nil, overrides: PresentationOverrides = PresentationOverrides(),
                            content: LayoutContent = LayoutContent(), reusing other: FrameRenderer? = nil,
                            sprites: SpriteSource? = nil) {
        let presentation = overrides.applied(to: layout.presentation)
        let appearance = overrides.applied(to: layout.appearance)
        var resolver = LayoutResolver(layout: layout, outputSize: outputSize, appearance: appearance,
                                      stagger: presentation.animation.stagger, content: content)
        self.init(layout: resolver.resolve(), presentation: presentation, direction: layout.direction(for: presentation),
                  reusing: other, sprites: sprites)
    }
}
