/// A progress node: a track and a fill from the leading edge, or a sliding segment while the
/// value is unknown.
public struct ProgressSpec: Sendable, Hashable {
    public var trackColor: Color
    public var fillColor: Color
    /// nil: the layout's direction.
    public var direction: LayoutDirection?
    public var value: ProgressValue
    /// Seconds a change of value takes to slide to the new value.
    public var valueAnimation: Double
    /// Seconds for the indeterminate segment to cross the bar once.
    public var indeterminatePeriod: Double

    public static let defaultValueAnimation = 0.3
    public static let defaultIndeterminatePeriod = 1.5
    /// The indeterminate segment's length, as a fraction of the bar.
    public static let indeterminateSegment = 0.3

    public init(trackColor: Color = Color(rgb: 0xE0E0E0), fillColor: Color = Color(rgb: 0x3498DB), direction: LayoutDirection? = nil, value: ProgressValue = .fraction(0),
                valueAnimation: Double = ProgressSpec.defaultValueAnimation,
                indeterminatePeriod: Double = ProgressSpec.defaultIndeterminatePeriod) {
        self.trackColor = trackColor
        self.fillColor = fillColor
        self.direction = direction
        self.value = value
        self.valueAnimation = valueAnimation
        self.indeterminatePeriod = indeterminatePeriod
    }
}
