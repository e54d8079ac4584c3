import SkeletonSettings
import SkeletonLayout

/// What is shown: a layout and the command overrides on top of it.
///
/// A look is copied into every frame and compared at every frame (which renderer draws it);
/// its fields live in one immutable box, so a copy is one reference and two copies of one
/// look compare by identity before anything else. Setting a field makes a new box.
public struct SkeletonLook: Sendable, Hashable {
    private final class Fields: Sendable {
        let layoutName: String
        let layout: Layout
        let overrides: PresentationOverrides
        let content: LayoutContent

        init(layoutName: String, layout: Layout, overrides: PresentationOverrides, content: LayoutContent) {
            self.layoutName = layoutName
            self.layout = layout
            self.overrides = overrides
            self.content = content
        }
    }

    private var fields: Fields

    public init(layoutName: String, layout: Layout, overrides: PresentationOverrides = PresentationOverrides(),
                content: LayoutContent = LayoutContent()) {
        fields = Fields(layoutName: layoutName, layout: layout, overrides: overrides, content: content)
    }

    public var layoutName: String {
        get { fields.layoutName }
        set { replaceFields(layoutName: newValue) }
    }

    public var layout: Layout {
        get { fields.layout }
        set { replaceFields(layout: newValue) }
    }

    public var overrides: PresentationOverrides {
        get { fields.overrides }
        set { replaceFields(overrides: newValue) }
    }

    /// Label texts and bar values set by commands (and by Plymouth's and psplash's clients).
    public var content: LayoutContent {
        get { fields.content }
        set { replaceFields(content: newValue) }
    }

    private mutating func replaceFields(layoutName: String? = nil, layout: Layout? = nil, overrides: PresentationOverrides? = nil,
                                        content: LayoutContent? = nil) {
        fields = Fields(layoutName: layoutName ?? fields.layoutName, layout: layout ?? fields.layout,
                        overrides: overrides ?? fields.overrides, content: content ?? fields.content)
    }

    public static func == (a: SkeletonLook, b: SkeletonLook) -> Bool {
        a.fields === b.fields
            || (a.layoutName == b.layoutName && a.layout == b.layout && a.overrides == b.overrides && a.content == b.content)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(layoutName)
        hasher.combine(layout)
        hasher.combine(overrides)
        hasher.combine(content)
    }

    public var presentation: Presentation { overrides.applied(to: layout.presentation) }
    public var appearance: Appearance { overrides.applied(to: layout.appearance) }

    /// Changes that redraw everything differently enough to deserve a cross-dissolve.
    func needsCrossfade(from old: SkeletonLook) -> Bool {
        old.layoutName != layoutName || old.layout != layout || old.presentation.style != presentation.style
    }
}
