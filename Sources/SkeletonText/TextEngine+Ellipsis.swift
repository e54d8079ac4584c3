import CHarfBuzz

/// The last line shown of text that was cut.
extension TextEngine {
    /// `paragraph[range]` with an ellipsis after it, shaped alone (a paragraph of its own), clusters dropped from its
    /// end (and the spaces before the ellipsis) until it fits `width` (1/64 pixel).
    static func shapeEllipsized(_ paragraph: [UInt32], range: Range<Int>, font: OpaquePointer, rightToLeft: Bool,
                                width: Int) -> ShapedRun {
        let ellipsis = ellipsis(in: font)
        var end = range.upperBound
        while true {
            while end > range.lowerBound && LineBreaker.isSpace(paragraph[end - 1]) { end -= 1 }
            let text = Array(paragraph[range.lowerBound..<end]) + ellipsis
            let run = Shaper.shapeLine(text, range: 0..<text.count, levels: Bidi.levels(text, rightToLeft: rightToLeft), font: font)
            let kept = end - range.lowerBound
            guard run.width > width && kept > 0 else { return run }
            end = range.lowerBound + (run.glyphs.lazy.map(\.cluster).filter { $0 < kept }.max() ?? 0)
        }
    }

    /// "…" (U+2026), or three full stops in a font without it (`hb_font_get_nominal_glyph`).
    static func ellipsis(in font: OpaquePointer) -> [UInt32] {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, 0x2026, &glyph) != 0 ? [0x2026] : [0x2E, 0x2E, 0x2E]
    }
}
