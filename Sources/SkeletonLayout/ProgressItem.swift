/// A progress bar placed on an output.
public struct ProgressItem: Sendable, Hashable {
    public var rect: Rect
    public var clip: Rect
    public var cornerRadius: Double
    public var trackColor: Color
    public var fillColor: Color
    /// The fill grows from the right.
    public var rightToLeft: Bool
    public var value: ProgressValue
    /// Seconds a new value takes to slide in.
    public var valueAnimation: Double
    /// Seconds for the indeterminate segment to cross the bar.
    public var indeterminatePeriod: Double
    /// The node's id, by which a value animation continues from one frame renderer to the next.
    public var nodeID: String?
}
