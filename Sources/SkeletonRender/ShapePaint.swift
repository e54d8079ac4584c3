import SkeletonLayout

/// Colours as ARGB (alpha in the top byte), converted once.
public struct PaintStops: Sendable {
    let argb: [UInt32]
    let isOpaque: Bool

    public init(_ colors: [Color]) {
        precondition(!colors.isEmpty, "a paint needs a colour")
        argb = colors.map(Self.argb)
        isOpaque = colors.allSatisfy(\.isOpaque)
    }

    /// One colour: a pulse's paint, made each frame, allocates its one stop and nothing else.
    public init(_ color: Color) {
        argb = [Self.argb(color)]
        isOpaque = color.isOpaque
    }

    private static func argb(_ color: Color) -> UInt32 { UInt32(color.alpha) << 24 | color.xrgb }
}

/// How a shape is filled: the colour at pixel (x, y) is the gradient `stops` (evenly spaced,
/// clamped at both ends) at parameter `a * (x + 0.5) + b * (y + 0.5) + c`. A solid fill is
/// one stop; a vertical gradient has `a == 0`; a horizontal sweep has `b == 0`.
public struct ShapePaint: Sendable {
    /// Stops as ARGB (alpha in the top byte).
    let stops: [UInt32]
    let a: Double
    let b: Double
    let c: Double
    let isOpaque: Bool
    /// When set, gradient colours come from this table instead of being interpolated.
    let table: GradientTable?

    public init(stops: [Color], a: Double = 0, b: Double = 0, c: Double = 0, table: GradientTable? = nil) {
        self.init(stops: PaintStops(stops), a: a, b: b, c: c, table: table)
    }

    /// With stops converted once (a renderer keeps them per shape, so frames allocate nothing).
    public init(stops: PaintStops, a: Double = 0, b: Double = 0, c: Double = 0, table: GradientTable? = nil) {
        self.stops = stops.argb
        self.a = stops.argb.count > 1 ? a : 0
        self.b = stops.argb.count > 1 ? b : 0
        self.c = c
        self.isOpaque = stops.isOpaque
        self.table = stops.argb.count > 1 ? table : nil
    }

    public static func solid(_ color: Color) -> ShapePaint { ShapePaint(stops: PaintStops(color)) }

    public var isSolid: Bool { stops.count == 1 || (a == 0 && b == 0) }

    /// A gradient whose colours change along x only: every row has the same colours.
    public var sweepsAlongX: Bool { !isSolid && b == 0 }

    /// ARGB at gradient parameter `t`: stops interpolated per channel in 16.16 fixed point.
    @inline(__always)
    func color(at t: Double) -> UInt32 {
        let n = stops.count
        if n == 1 || !(t > 0) { return stops[0] }
        if t >= 1 { return stops[n - 1] }
        let s = t * Double(n - 1)
        let i = min(Int(s), n - 2)
        let f = Int((s - Double(i)) * 65536)
        let p = stops[i], q = stops[i + 1]
        if p == q { return p }
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let u = Int((p >> shift) & 0xFF), v = Int((q >> shift) & 0xFF)
            return UInt32(u + (((v - u) * f + 32768) >> 16)) << shift
        }
        return channel(24) | channel(16) | channel(8) | channel(0)
    }

    @inline(__always)
    func color(x: Int, y: Int) -> UInt32 {
        let t = a * (Double(x) + 0.5) + b * (Double(y) + 0.5) + c
        return table?.color(at: t) ?? color(at: t)
    }

    /// Where column x reads the gradient table: entry `(start + x * step) >> 32`, clamped. The
    /// walk is anchored at column 0, so a column's colour does not depend on where a region
    /// that draws it starts.
    private var tableWalk: (start: Int64, step: Int64) {
        let steps = Double(GradientTable.steps)
        let scale = 4_294_967_296.0
        return (Int64(((a * 0.5 + c) * steps + 0.5).clamped(-1e6, 1e6) * scale),
                Int64((a * steps).clamped(-1e5, 1e5) * scale))
    }

    /// Colours of columns `from..<to` for a paint that varies along x only; outside the
    /// gradient's span the end colours repeat. With `xrgb`, the alpha byte is cleared so the
    /// row can be copied straight into a canvas.
    func columnColors(from: Int, to: Int, xrgb: Bool) -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: max(0, to - from)) { buffer, count in
            if let base = buffer.baseAddress { writeColumnColors(from: from, to: to, xrgb: xrgb, into: base) }
            count = max(0, to - from)
        }
    }

    /// `columnColors` written into `buffer` (room for `to - from` of them): no allocation.
    func writeColumnColors(from: Int, to: Int, xrgb: Bool, into buffer: UnsafeMutablePointer<UInt32>) {
        let mask: UInt32 = xrgb ? 0xFFFFFF : 0xFFFF_FFFF
        guard let table else {
            for k in 0..<max(0, to - from) { buffer[k] = color(at: a * (Double(from + k) + 0.5) + c) & mask }
            return
        }
        let walk = tableWalk
        table.colors.withUnsafeBufferPointer { colors in
            // One add per column.
            var index = walk.start &+ Int64(from) &* walk.step
            let lastIndex = Int64(GradientTable.steps)
            for k in 0..<max(0, to - from) {
                let i = min(max(index >> 32, 0), lastIndex)
                buffer[k] = colors[Int(i)] & mask
                index &+= walk.step
            }
        }
    }
}

extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
