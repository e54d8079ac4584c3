import CHarfBuzz

/// HarfBuzz shaping (`hb_buffer_create`, `hb_buffer_add_utf32`, `hb_buffer_set_direction`,
/// `hb_buffer_guess_segment_properties`, `hb_shape`). Directions come from the bidirectional
/// algorithm (`Bidi`), the script from the text. Characters are Unicode scalar values;
/// clusters index them.
enum Shaper {
    /// Characters `range` of a paragraph with bidi `levels`, shaped run by run in display order.
    static func shapeLine(_ text: [UInt32], range: Range<Int>, levels: [Int8], font: OpaquePointer) -> ShapedRun {
        let runs = Bidi.visualRuns(levels: levels, range: range)
        return ShapedRun(glyphs: runs.flatMap { shape(text, range: $0.range, rightToLeft: $0.rightToLeft, font: font).glyphs })
    }

    /// `text[range]` shaped in one direction with `font`, the rest of `text` as context
    /// (Arabic joining across the ends). Glyphs in display order; clusters index `text`.
    static func shape(_ text: [UInt32], range: Range<Int>, rightToLeft: Bool, font: OpaquePointer) -> ShapedRun {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        text.withUnsafeBufferPointer { scalars in
            hb_buffer_add_utf32(buffer, scalars.baseAddress, Int32(scalars.count), UInt32(range.lowerBound), Int32(range.count))
        }
        var flags = HB_BUFFER_FLAG_DEFAULT.rawValue
        if range.lowerBound == 0 { flags |= HB_BUFFER_FLAG_BOT.rawValue }
        if range.upperBound == text.count { flags |= HB_BUFFER_FLAG_EOT.rawValue }
        hb_buffer_set_flags(buffer, hb_buffer_flags_t(rawValue: flags))
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let info = infos![i], position = positions![i]
            glyphs.append(ShapedGlyph(id: info.codepoint, cluster: Int(info.cluster), advance: Int(position.x_advance),
                                      xOffset: Int(position.x_offset), yOffset: Int(position.y_offset)))
        }
        return ShapedRun(glyphs: glyphs)
    }
}
