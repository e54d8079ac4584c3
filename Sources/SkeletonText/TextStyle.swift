import SkeletonLayout

/// How a label's text is drawn: font file, size, weight, colour, alignment and line rules.
public struct TextStyle: Sendable, Hashable {
    /// A font file (TrueType, OpenType, a variable font); the first face in it is used.
    public var fontPath: String
    /// The em size in output pixels.
    public var size: Double
    /// 100...900; applied where the font has it (a variable font's `wght` axis, or a bold face
    /// file beside the regular one for 600 and above), otherwise ignored and said by
    /// `TextEngine.notes(for:)`.
    public var weight: Int?
    /// Straight alpha.
    public var color: Color
    public var alignment: TextAlignment
    /// The layout's direction: the base direction of paragraphs, and what `natural` follows.
    public var rightToLeft: Bool
    /// At most this many lines; nil: as many as fit the height. The last line shown ends with
    /// an ellipsis when text was cut.
    public var maxLines: Int?
    /// Pixels from baseline to baseline; nil: the font's own line spacing at this size.
    public var lineHeight: Double?

    public init(fontPath: String = TextEngine.defaultFontPath, size: Double, weight: Int? = nil, color: Color = .black,
                alignment: TextAlignment = .natural, rightToLeft: Bool = false, maxLines: Int? = nil,
                lineHeight: Double? = nil) {
        self.fontPath = fontPath
        self.size = size
        self.weight = weight
        self.color = color
        self.alignment = alignment
        self.rightToLeft = rightToLeft
        self.maxLines = maxLines
        self.lineHeight = lineHeight
    }
}
