import SkeletonLayout

/// What is shown: a layout and the command overrides on top of it.
public struct SkeletonLook: Sendable, Hashable {
    public var layoutName: String
    public var layout: Layout
    public var overrides: PresentationOverrides

    public init(layoutName: String, layout: Layout, overrides: PresentationOverrides = PresentationOverrides()) {
        self.layoutName = layoutName
        self.layout = layout
        self.overrides = overrides
    }

    public var presentation: Presentation { overrides.applied(to: layout.presentation) }
    public var appearance: Appearance { overrides.applied(to: layout.appearance) }

    /// Changes that redraw everything differently enough to deserve a cross-dissolve.
    func needsCrossfade(from old: SkeletonLook) -> Bool {
        old.layoutName != layoutName || old.layout != layout || old.presentation.style != presentation.style
    }
}
