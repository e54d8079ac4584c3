/// A face's vertical metrics at one size, in pixels (`hb_font_get_h_extents`): ascender above
/// the baseline, descender below it (positive), and the gap the font asks between lines.
struct FontMetrics {
    var ascender: Double
    var descender: Double
    var lineGap: Double

    /// The font's own baseline-to-baseline distance.
    var lineSpacing: Double { ascender + descender + lineGap }
}
