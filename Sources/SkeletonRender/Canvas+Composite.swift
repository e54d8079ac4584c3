extension Canvas {
    /// Blends premultiplied ARGB8888 `source`, its top-left corner at (`x`, `y`), over this
    /// canvas inside `region`: `dst = src + dst × (255 − α) / 255` per channel. Clipped once;
    /// the rows then run without bounds checks, copying opaque pixels and skipping clear ones.
    public func composite(_ source: Canvas, x: Int, y: Int, within region: PixelRect) {
        let r = region.intersection(bounds).intersection(PixelRect(x: x, y: y, width: source.width, height: source.height))
        guard !r.isEmpty else { return }
        for row in r.y..<r.maxY {
            let d = self.row(row) + r.x
            let s = source.row(row - y) + (r.x - x)
            for i in 0..<r.width {
                let p = s[i]
                let alpha = p >> 24
                if alpha == 255 {
                    d[i] = p & 0xFF_FFFF
                } else if alpha != 0 {
                    d[i] = (p & 0xFF_FFFF) &+ PixelMath.scale(d[i], by: 255 - alpha)
                }
            }
        }
    }
}
