import SkeletonSettings
import SkeletonLayout

/// What is shown: a layout and the command overrides on top of it.
public struct SkeletonLook: Sendable, Hashable {
    public var layoutName: String
    public var layout: Layout
    public var overrides: PresentationOverrides
    /// Label texts and bar values set by commands (and by Plymouth's and psplash's clients).
    public var content: LayoutContent

    public init(layoutName: String, layout: Layout, overrides: PresentationOverrides = PresentationOverrides(),
                content: LayoutContent = LayoutContent()) {
        self.layoutName = layoutName
        self.layout = layout
        self.overrides = overrides
        self.content = content
    }

    public var presentation: Presentation { overrides.applied(to: layout.presentation) }
    public var appearance: Appearance { overrides.applied(to: layout.appearance) }

    /// Changes that redraw everything differently enough to deserve a cross-dissolve.
    func needsCrossfade(from old: SkeletonLook) -> Bool {
        old.layoutName != layoutName || old.layout != layout || old.presentation.style != presentation.style
    }
}
