/// A glyph bitmap in the cache: the face, the size in 1/64 pixel, the glyph id and the pen's
/// horizontal subpixel phase (0..<`GlyphKey.phases`).
struct GlyphKey: Hashable {
    /// Pen positions are rounded to a quarter pixel.
    static let phases = 4

    var face: FaceKey
    var size: Int
    var glyph: UInt32
    var phase: Int
}
