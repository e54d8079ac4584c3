import SkeletonLayout

/// A gradient sampled at 4096 even steps of its parameter, so that a sweep's per-column
/// colours are one table read each. Entry k is the exact interpolation at k / 4096.
public final class GradientTable: Sendable {
    public static let steps = 4096
    /// ARGB colours, `steps + 1` of them.
    let colors: [UInt32]

    /// Parameters up to `flatBelow` read the first entry's colour, and from `flatAbove` on the
    /// last one's: the entries at each end equal to it, less half an entry to spare for the
    /// fixed-point walk along a row.
    public let flatBelow: Double
    public let flatAbove: Double

    public init(stops: [Color]) {
        let paint = ShapePaint(stops: stops, a: 1)
        let colors = (0...GradientTable.steps).map { paint.color(at: Double($0) / Double(GradientTable.steps)) }
        self.colors = colors
        // Entry i is read for parameters within half an entry of i / steps.
        let leading = colors.firstIndex { $0 != colors[0] } ?? colors.count
        let trailing = colors.count - 1 - (colors.lastIndex { $0 != colors[colors.count - 1] } ?? -1)
        flatBelow = Double(leading - 1) / Double(GradientTable.steps)
        flatAbove = Double(GradientTable.steps - trailing + 1) / Double(GradientTable.steps)
    }

    /// The entry nearest to parameter `t`, clamped to the ends.
    @inline(__always)
    func color(at t: Double) -> UInt32 {
        if !(t > 0) { return colors[0] }
        if t >= 1 { return colors[GradientTable.steps] }
        return colors[Int(t * Double(GradientTable.steps) + 0.5)]
    }
}
