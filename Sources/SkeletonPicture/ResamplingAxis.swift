/// The filter along one axis of a resize from `source` to `destination` pixels: for each output
/// pixel, the source pixels it reads and their weights, in 14-bit fixed point summing to exactly
/// `one` (so a flat colour stays exactly that colour).
///
/// Enlarging (and keeping the size) is bilinear: output pixel j samples the source at
/// (j + 0.5) * source / destination - 0.5 between its two neighbours, the edge pixel repeated
/// beyond the edges (the same size is an exact copy). Reducing is area averaging: output pixel j
/// covers [j, j + 1) * source / destination of the source, and each source pixel counts by the
/// length it shares with that span (a box filter with exact coverage), so no source pixel is
/// skipped. Only the output pixels in `visible` are computed (a crop).
struct ResamplingAxis {
    static let shift = 14
    static let one: Int32 = 1 << 14

    /// Per visible output pixel: its first source pixel, and where its weights start in `weights`
    /// (they end where the next pixel's start).
    private(set) var firsts: [Int32] = []
    private(set) var offsets: [Int32] = [0]
    private(set) var weights: [Int32] = []

    /// Whether every output pixel reads at most two neighbours (enlarging or the same size).
    let isBilinear: Bool

    init(source: Int, destination: Int, visible: Range<Int>) {
        precondition(source > 0 && destination > 0, "resampling needs positive sizes")
        isBilinear = destination >= source
        firsts.reserveCapacity(visible.count)
        offsets.reserveCapacity(visible.count + 1)
        weights.reserveCapacity(visible.count * (isBilinear ? 2 : source / destination + 2))
        for j in visible {
            if destination >= source { addBilinear(j, source: source, destination: destination) } else { addArea(j, source: source, destination: destination) }
            offsets.append(Int32(weights.count))
        }
    }

    var count: Int { firsts.count }

    /// For a bilinear axis: each output pixel's two source pixels (the same one twice at an
    /// edge) and the second's weight in 8-bit fixed point (0...256), for `PictureScaler`'s
    /// packed two-channel arithmetic.
    func bilinearTaps() -> (firsts: [Int32], seconds: [Int32], fractions: [UInt32]) {
        precondition(isBilinear, "an area-averaging axis has more than two taps")
        var seconds = [Int32](), fractions = [UInt32]()
        seconds.reserveCapacity(count)
        fractions.reserveCapacity(count)
        for i in 0..<count {
            let two = offsets[i + 1] - offsets[i] == 2
            seconds.append(firsts[i] + (two ? 1 : 0))
            fractions.append(two ? UInt32((weights[Int(offsets[i]) + 1] + 32) >> 6) : 0)
        }
        return (firsts, seconds, fractions)
    }

    /// The source pixels that any visible output pixel reads.
    var sourceRange: Range<Int> {
        guard let low = firsts.min() else { return 0..<0 }
        var high = 0
        for i in 0..<count { high = max(high, Int(firsts[i]) + Int(offsets[i + 1] - offsets[i])) }
        return Int(low)..<high
    }

    private mutating func addBilinear(_ j: Int, source: Int, destination: Int) {
        // u = numerator / (2 * destination), the sample position in source pixels.
        let numerator = (2 * j + 1) * source - destination, denominator = 2 * destination
        let floor = numerator >= 0 ? numerator / denominator : -((-numerator + denominator - 1) / denominator)
        let fraction = Int32(((numerator - floor * denominator) << Self.shift + destination) / denominator)
        if floor < 0 || fraction == 0 || floor + 1 >= source || fraction == Self.one {
            let nearest = fraction == Self.one ? floor + 1 : floor
            firsts.append(Int32(min(max(nearest, 0), source - 1)))
            weights.append(Self.one)
        } else {
            firsts.append(Int32(floor))
            weights.append(Self.one - fraction)
            weights.append(fraction)
        }
    }

    private mutating func addArea(_ j: Int, source: Int, destination: Int) {
        // In units of 1/destination source pixels: the span is [j * source, (j + 1) * source),
        // source pixel i is [i * destination, (i + 1) * destination).
        let start = j * source, end = start + source
        let first = start / destination, last = (end - 1) / destination
        let begin = weights.count
        var total: Int32 = 0, largest = begin
        for i in first...last {
            let overlap = min(end, (i + 1) * destination) - max(start, i * destination)
            let weight = Int32((overlap << Self.shift + source / 2) / source)
            weights.append(weight)
            total += weight
            if weight > weights[largest] { largest = weights.count - 1 }
        }
        weights[largest] += Self.one - total
        firsts.append(Int32(first))
    }
}
