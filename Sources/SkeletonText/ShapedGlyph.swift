/// One glyph HarfBuzz placed: its id in the font, the index of the first character of its
/// cluster, and its advance and offsets in 1/64 pixel (y up).
struct ShapedGlyph {
    var id: UInt32
    var cluster: Int
    var advance: Int
    var xOffset: Int
    var yOffset: Int
}
