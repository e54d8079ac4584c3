import SkeletonRender

/// Resizes premultiplied ARGB8888 pictures with `ResamplingAxis` filters, in two passes:
/// each source row the result needs is filtered across (into a scratch buffer of the visible
/// width), then each output row is filtered down from those rows. Premultiplied colour is
/// filtered like alpha, so transparent pixels do not darken their neighbours' edges and the
/// result stays premultiplied (no colour exceeds its alpha). Loops run on raw row pointers.
/// A bilinear axis (enlarging) uses 8-bit weights and two channels per 32-bit multiply, as
/// pixman does; an area-averaging one (reducing) 14-bit weights per channel.
public enum PictureScaler {
    /// A transparent `width` x `height` box with `picture` scaled into `placement` (box
    /// coordinates; the part outside the box is cropped, never computed).
    public static func render(_ picture: PixelBuffer, into placement: PixelRect, width: Int, height: Int) -> PixelBuffer {
        let box = PixelBuffer(width: width, height: height)
        let visible = placement.intersection(box.canvas.bounds)
        guard !visible.isEmpty else { return box }
        let across = ResamplingAxis(source: picture.width, destination: placement.width,
                                    visible: visible.x - placement.x..<visible.maxX - placement.x)
        let down = ResamplingAxis(source: picture.height, destination: placement.height,
                                  visible: visible.y - placement.y..<visible.maxY - placement.y)
        let rows = down.sourceRange
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: rows.count * visible.width)
        defer { scratch.deallocate() }
        let source = picture.canvas
        if across.isBilinear {
            let taps = across.bilinearTaps()
            taps.firsts.withUnsafeBufferPointer { firsts in
                taps.seconds.withUnsafeBufferPointer { seconds in
                    taps.fractions.withUnsafeBufferPointer { fractions in
                        for y in rows {
                            interpolateRow(source.row(y), into: scratch + (y - rows.lowerBound) * visible.width,
                                           firsts: firsts, seconds: seconds, fractions: fractions)
                        }
                    }
                }
            }
        } else {
            across.firsts.withUnsafeBufferPointer { firsts in
                across.offsets.withUnsafeBufferPointer { offsets in
                    across.weights.withUnsafeBufferPointer { weights in
                        for y in rows {
                            filterRow(source.row(y), into: scratch + (y - rows.lowerBound) * visible.width,
                                      firsts: firsts, offsets: offsets, weights: weights)
                        }
                    }
                }
            }
        }
        let target = box.canvas
        let bilinearDown = down.isBilinear ? down.bilinearTaps() : nil
        for j in 0..<down.count {
            let first = scratch + (Int(down.firsts[j]) - rows.lowerBound) * visible.width
            let out = target.row(visible.y + j) + visible.x
            if let bilinearDown {
                let fraction = bilinearDown.fractions[j]
                if fraction == 0 {
                    out.update(from: first, count: visible.width)
                } else {
                    interpolateRows(first, first + visible.width, fraction: fraction, count: visible.width, into: out)
                }
            } else {
                let taps = Int(down.offsets[j])..<Int(down.offsets[j + 1])
                down.weights.withUnsafeBufferPointer { weights in
                    filterColumn(first, rowPixels: visible.width, weights: UnsafeBufferPointer(rebasing: weights[taps]), into: out)
                }
            }
        }
        return box
    }

    /// `p` and `q` mixed, `q` weighing `fraction` / 256, rounded: alpha and green, red and blue
    /// each share one multiply (a lane is at most 255 * 256 + 128, so no lane spills).
    @inline(__always)
    private static func lerp(_ p: UInt32, _ q: UInt32, _ fraction: UInt32) -> UInt32 {
        let rest = 256 &- fraction
        let rb = ((p & 0x00FF_00FF) &* rest &+ (q & 0x00FF_00FF) &* fraction &+ 0x0080_0080) >> 8 & 0x00FF_00FF
        let ag = ((p >> 8 & 0x00FF_00FF) &* rest &+ (q >> 8 & 0x00FF_00FF) &* fraction &+ 0x0080_0080) & 0xFF00_FF00
        return rb | ag
    }

    /// One row across, bilinear: output pixel i mixes `firsts[i]` and `seconds[i]`.
    @inline(__always)
    private static func interpolateRow(_ row: UnsafeMutablePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>,
                                       firsts: UnsafeBufferPointer<Int32>, seconds: UnsafeBufferPointer<Int32>,
                                       fractions: UnsafeBufferPointer<UInt32>) {
        let f = firsts.baseAddress!, s = seconds.baseAddress!, w = fractions.baseAddress!
        for i in 0..<firsts.count {
            out[i] = lerp(row[Int(f[i])], row[Int(s[i])], w[i])
        }
    }

    /// One output row down, bilinear: two scratch rows mixed by one fraction, eight pixels at a
    /// time as sixteen 16-bit lanes (blue and red in the low bytes, green and alpha in the high
    /// ones: `lerp`'s arithmetic, with 16-bit multiplies that every x86-64 has), the rest one by one.
    @inline(__always)
    private static func interpolateRows(_ top: UnsafeMutablePointer<UInt32>, _ bottom: UnsafeMutablePointer<UInt32>,
                                        fraction: UInt32, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        typealias Lanes = SIMD16<UInt16>
        let low = Lanes(repeating: 0x00FF), high = Lanes(repeating: 0xFF00), half = Lanes(repeating: 0x0080)
        let weight = Lanes(repeating: UInt16(fraction)), rest = Lanes(repeating: UInt16(256 - fraction))
        var x = 0
        while x + 8 <= count {
            let p = UnsafeRawPointer(top + x).loadUnaligned(as: Lanes.self)
            let q = UnsafeRawPointer(bottom + x).loadUnaligned(as: Lanes.self)
            let bytes = ((p & low) &* rest &+ (q & low) &* weight &+ half) &>> 8
            let highBytes = ((p &>> 8) &* rest &+ (q &>> 8) &* weight &+ half) & high
            UnsafeMutableRawPointer(out + x).storeBytes(of: bytes | highBytes, as: Lanes.self)
            x += 8
        }
        while x < count {
            out[x] = lerp(top[x], bottom[x], fraction)
            x += 1
        }
    }

    /// One row across: output pixel i is the weighted sum of `firsts[i]` and the pixels after it.
    @inline(__always)
    private static func filterRow(_ row: UnsafeMutablePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>,
                                  firsts: UnsafeBufferPointer<Int32>, offsets: UnsafeBufferPointer<Int32>,
                                  weights: UnsafeBufferPointer<Int32>) {
        let w = weights.baseAddress!, o = offsets.baseAddress!, f = firsts.baseAddress!
        for i in 0..<firsts.count {
            var a: Int32 = 1 << 13, r: Int32 = 1 << 13, g: Int32 = 1 << 13, b: Int32 = 1 << 13
            let p = row + Int(f[i])
            var k = 0
            for t in Int(o[i])..<Int(o[i + 1]) {
                let pixel = p[k], weight = w[t]
                a &+= weight &* Int32(pixel >> 24)
                r &+= weight &* Int32(pixel >> 16 & 0xFF)
                g &+= weight &* Int32(pixel >> 8 & 0xFF)
                b &+= weight &* Int32(pixel & 0xFF)
                k &+= 1
            }
            out[i] = pack(a, r, g, b)
        }
    }

    /// One output row down: the weighted sum of consecutive scratch rows starting at `first`.
    @inline(__always)
    private static func filterColumn(_ first: UnsafeMutablePointer<UInt32>, rowPixels: Int,
                                     weights: UnsafeBufferPointer<Int32>, into out: UnsafeMutablePointer<UInt32>) {
        for x in 0..<rowPixels {
            var a: Int32 = 1 << 13, r: Int32 = 1 << 13, g: Int32 = 1 << 13, b: Int32 = 1 << 13
            var p = first + x
            for weight in weights {
                let pixel = p.pointee
                a &+= weight &* Int32(pixel >> 24)
                r &+= weight &* Int32(pixel >> 16 & 0xFF)
                g &+= weight &* Int32(pixel >> 8 & 0xFF)
                b &+= weight &* Int32(pixel & 0xFF)
                p += rowPixels
            }
            out[x] = pack(a, r, g, b)
        }
    }

    /// Four rounded 14-bit fixed-point channels (the rounding half already added) as one pixel.
    @inline(__always)
    private static func pack(_ a: Int32, _ r: Int32, _ g: Int32, _ b: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: a >> 14) << 24 | UInt32(truncatingIfNeeded: r >> 14) << 16
            | UInt32(truncatingIfNeeded: g >> 14) << 8 | UInt32(truncatingIfNeeded: b >> 14)
    }
}
