/// A label's horizontal alignment; `natural` follows the layout's direction.
public enum TextAlignment: String, Sendable, CaseIterable {
    case natural, left, center, right

    /// `natural` made left or right for a layout direction.
    public func resolved(rightToLeft: Bool) -> TextAlignment {
        self == .natural ? (rightToLeft ? .right : .left) : self
    }
}
