/// Shaped text in display order (left to right on the screen, whatever its directions).
struct ShapedRun {
    var glyphs: [ShapedGlyph]

    /// The advance of the whole run, in 1/64 pixel.
    var width: Int { glyphs.reduce(0) { $0 + $1.advance } }

    /// The advance of each cluster, at the index of its first character (zero elsewhere), for
    /// `count` characters: what line breaking measures.
    func clusterAdvances(count: Int) -> [Int] {
        var advances = [Int](repeating: 0, count: count)
        for glyph in glyphs { advances[glyph.cluster] += glyph.advance }
        return advances
    }

    /// Whether each of `count` characters starts a cluster: where a word may be cut.
    func clusterStarts(count: Int) -> [Bool] {
        var starts = [Bool](repeating: false, count: count)
        for glyph in glyphs { starts[glyph.cluster] = true }
        return starts
    }
}
