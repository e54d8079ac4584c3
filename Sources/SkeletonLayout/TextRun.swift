/// A label's text as set on one output: sizes in output pixels, alignment resolved.
public struct TextRun: Sendable, Hashable {
    public var text: String
    /// nil: the default font.
    public var font: String?
    public var pixelSize: Double
    public var weight: Int?
    public var color: Color
    /// Left, center or right (never natural).
    public var alignment: TextAlignment
    public var rightToLeft: Bool
    public var maxLines: Int?
    /// Baseline to baseline in output pixels; nil: the font's.
    public var lineHeight: Double?

    public init(text: String, font: String? = nil, pixelSize: Double, weight: Int? = nil, color: Color = .black,
                alignment: TextAlignment = .left, rightToLeft: Bool = false, maxLines: Int? = nil, lineHeight: Double? = nil) {
        self.text = text
        self.font = font
        self.pixelSize = pixelSize
        self.weight = weight
        self.color = color
        self.alignment = alignment
        self.rightToLeft = rightToLeft
        self.maxLines = maxLines
        self.lineHeight = lineHeight
    }
}
