/// Per-channel arithmetic on XRGB8888 pixels.
public enum PixelMath {
    /// `over` at opacity `alpha` (0...255) on `under`, rounded to nearest.
    @inline(__always)
    public static func blend(under: UInt32, over: UInt32, alpha: UInt32) -> UInt32 {
        let inverse = 255 - alpha
        // Red and blue share one multiply, green gets its own; +128 then the /255 trick rounds.
        let rbU = under & 0xFF00FF, rbO = over & 0xFF00FF
        var rb = rbO &* alpha &+ rbU &* inverse &+ 0x800080
        rb = ((rb &+ ((rb >> 8) & 0xFF00FF)) >> 8) & 0xFF00FF
        let gU = under & 0xFF00, gO = over & 0xFF00
        var g = (gO >> 8) &* alpha &+ (gU >> 8) &* inverse &+ 0x80
        g = ((g &+ (g >> 8)) >> 8) & 0xFF
        return rb | (g << 8)
    }

    /// Each channel of `pixel` times `factor` / 255, rounded to nearest.
    @inline(__always)
    public static func scale(_ pixel: UInt32, by factor: UInt32) -> UInt32 {
        var rb = (pixel & 0xFF00FF) &* factor &+ 0x800080
        rb = ((rb &+ ((rb >> 8) & 0xFF00FF)) >> 8) & 0xFF00FF
        var g = ((pixel >> 8) & 0xFF) &* factor &+ 0x80
        g = ((g &+ (g >> 8)) >> 8) & 0xFF
        return rb | (g << 8)
    }

    @inline(__always)
    public static func red(_ p: UInt32) -> Int { Int((p >> 16) & 0xFF) }
    @inline(__always)
    public static func green(_ p: UInt32) -> Int { Int((p >> 8) & 0xFF) }
    @inline(__always)
    public static func blue(_ p: UInt32) -> Int { Int(p & 0xFF) }
}
