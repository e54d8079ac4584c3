/// One glyph's anti-aliased coverage as FreeType rendered it: `width` x `height` bytes of
/// alpha, placed `left` pixels right of the pen and `top` pixels above the baseline.
struct GlyphBitmap {
    var left: Int
    var top: Int
    var width: Int
    var height: Int
    var alpha: [UInt8]

    static let empty = GlyphBitmap(left: 0, top: 0, width: 0, height: 0, alpha: [])
}
