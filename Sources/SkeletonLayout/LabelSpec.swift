/// A label node's text and how it is set. Sizes are in design pixels.
public struct LabelSpec: Sendable, Hashable {
    public var text: String
    /// A font file; nil: the default font (DejaVu Sans).
    public var font: String?
    public var fontSize: Double
    /// 100 to 900, where the font has weights.
    public var weight: Int?
    public var color: Color
    public var alignment: TextAlignment
    /// At most this many lines, the last one ending in an ellipsis when the text is cut; nil: as many as fit.
    public var lines: Int?
    /// Baseline to baseline; nil: the font's own line spacing.
    public var lineHeight: Double?

    public static let defaultFontSize = 17.0

    public init(text: String, font: String? = nil, fontSize: Double = LabelSpec.defaultFontSize, weight: Int? = nil,
                color: Color = .black, alignment: TextAlignment = .natural, lines: Int? = 1, lineHeight: Double? = nil) {
        self.text = text
        self.font = font
        self.fontSize = fontSize
        self.weight = weight
        self.color = color
        self.alignment = alignment
        self.lines = lines
        self.lineHeight = lineHeight
    }
}
