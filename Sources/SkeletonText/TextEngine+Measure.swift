/// Measuring text without drawing it.
extension TextEngine {
    /// The advance of the widest paragraph of `text` set on one line, in pixels: what a box
    /// must be wide for the text not to wrap.
    public func advance(of text: String, style: TextStyle) throws(TextError) -> Double {
        try Self.validate(style)
        let face = faces[try choice(for: style).face]!
        let font = face.shapingFont(size: Int((style.size * 64).rounded()))
        let widths = Self.paragraphs(of: text).map { paragraph in
            Shaper.shapeLine(paragraph, range: 0..<paragraph.count, levels: Bidi.levels(paragraph, rightToLeft: style.rightToLeft),
                             font: font).width
        }
        return Double(widths.max() ?? 0) / 64
    }
}
