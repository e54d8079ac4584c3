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

    /// `blend(under:over:alpha:)` for one `under` and `alpha` and many `over`s (a row's run of
    /// column colours at one coverage): the under pixel's weighted share is worked out once.
    public struct BlendOnto {
        let alpha: UInt32
        let redBlueUnder: UInt32
        let greenUnder: UInt32

        @inline(__always)
        public init(under: UInt32, alpha: UInt32) {
            self.alpha = alpha
            redBlueUnder = (under & 0xFF00FF) &* (255 - alpha) &+ 0x800080
            greenUnder = ((under & 0xFF00) >> 8) &* (255 - alpha) &+ 0x80
        }

        @inline(__always)
        public func callAsFunction(_ over: UInt32) -> UInt32 {
            var rb = (over & 0xFF00FF) &* alpha &+ redBlueUnder
            rb = ((rb &+ ((rb >> 8) & 0xFF00FF)) >> 8) & 0xFF00FF
            var g = ((over & 0xFF00) >> 8) &* alpha &+ greenUnder
            g = ((g &+ (g >> 8)) >> 8) & 0xFF
            return rb | (g << 8)
        }

        /// `callAsFunction` over `count` colours from `over` into `out`, four lanes at a time
        /// (a shape's partly covered row: a thin bar's top and bottom rows, whole widths).
        @inline(__always)
        public func run(_ over: UnsafePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>, count: Int) {
            typealias Lanes = SIMD4<UInt32>
            let lanesAlpha = Lanes(repeating: alpha)
            let lanesRedBlue = Lanes(repeating: redBlueUnder), lanesGreen = Lanes(repeating: greenUnder)
            var k = 0
            while k + 4 <= count {
                let colors = UnsafeRawPointer(over + k).loadUnaligned(as: Lanes.self)
                var rb = (colors & 0xFF00FF) &* lanesAlpha &+ lanesRedBlue
                rb = ((rb &+ ((rb &>> 8) & 0xFF00FF)) &>> 8) & 0xFF00FF
                var g = ((colors & 0xFF00) &>> 8) &* lanesAlpha &+ lanesGreen
                g = ((g &+ (g &>> 8)) &>> 8) & 0xFF
                UnsafeMutableRawPointer(out + k).storeBytes(of: rb | (g &<< 8), as: Lanes.self)
                k += 4
            }
            while k < count {
                out[k] = self(over[k])
                k += 1
            }
        }
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
