import SkeletonLayout

/// How a shape is filled: the colour at pixel (x, y) is the gradient `stops` (evenly spaced,
/// clamped at both ends) at parameter `a * (x + 0.5) + b * (y + 0.5) + c`. A solid fill is
/// one stop; a vertical gradient has `a == 0`; a horizontal sweep has `b == 0`.
public struct ShapePaint: Sendable, Equatable {
    /// Stops as ARGB (alpha in the top byte).
    let stops: [UInt32]
    let a: Double
    let b: Double
    let c: Double
    let isOpaque: Bool

    public init(stops: [Color], a: Double = 0, b: Double = 0, c: Double = 0) {
        precondition(!stops.isEmpty, "a paint needs a colour")
        self.stops = stops.map { UInt32($0.alpha) << 24 | $0.xrgb }
        self.a = stops.count > 1 ? a : 0
        self.b = stops.count > 1 ? b : 0
        self.c = c
        self.isOpaque = stops.allSatisfy(\.isOpaque)
    }

    public static func solid(_ color: Color) -> ShapePaint { ShapePaint(stops: [color]) }

    public var isSolid: Bool { stops.count == 1 || (a == 0 && b == 0) }

    /// ARGB at gradient parameter `t`.
    @inline(__always)
    func color(at t: Double) -> UInt32 {
        let n = stops.count
        if n == 1 { return stops[0] }
        if !(t > 0) { return stops[0] }
        if t >= 1 { return stops[n - 1] }
        let s = t * Double(n - 1)
        let i = min(Int(s), n - 2)
        let f = s - Double(i)
        let p = stops[i], q = stops[i + 1]
        if p == q { return p }
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let u = Double((p >> shift) & 0xFF), v = Double((q >> shift) & 0xFF)
            return UInt32((u + (v - u) * f).rounded()) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }

    @inline(__always)
    func color(x: Int, y: Int) -> UInt32 {
        color(at: a * (Double(x) + 0.5) + b * (Double(y) + 0.5) + c)
    }
}
