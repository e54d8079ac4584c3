import SkeletonRender

/// Resizes premultiplied ARGB8888 pictures with `ResamplingAxis` filters, in two passes:
/// each source row the result needs is filtered across (into a scratch buffer of the visible
/// width), then each output row is filtered down from those rows. Premultiplied colour is
/// filtered like alpha, so transparent pixels do not darken their neighbours' edges and the
/// result stays premultiplied (no colour exceeds its alpha). Loops run on raw row pointers.
enum PictureScaler {
    /// A transparent `width` x `height` box with `picture` scaled into `placement` (box
    /// coordinates; the part outside the box is cropped, never computed).
    static func render(_ picture: PixelBuffer, into placement: PixelRect, width: Int, height: Int) -> PixelBuffer {
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
        let target = box.canvas
        for j in 0..<down.count {
            let first = Int(down.firsts[j]) - rows.lowerBound
            let taps = Int(down.offsets[j])..<Int(down.offsets[j + 1])
            let out = target.row(visible.y + j) + visible.x
            if taps.count == 1 {
                out.update(from: scratch + first * visible.width, count: visible.width)
            } else {
                down.weights.withUnsafeBufferPointer { weights in
                    filterColumn(scratch + first * visible.width, rowPixels: visible.width, weights: UnsafeBufferPointer(rebasing: weights[taps]), into: out)
                }
            }
        }
        return box
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
        if weights.count == 2 {
            let top = first, bottom = first + rowPixels, wt = weights[0], wb = weights[1]
            for x in 0..<rowPixels {
                let p = top[x], q = bottom[x]
                out[x] = pack(1 << 13 &+ wt &* Int32(p >> 24) &+ wb &* Int32(q >> 24),
                              1 << 13 &+ wt &* Int32(p >> 16 & 0xFF) &+ wb &* Int32(q >> 16 & 0xFF),
                              1 << 13 &+ wt &* Int32(p >> 8 & 0xFF) &+ wb &* Int32(q >> 8 & 0xFF),
                              1 << 13 &+ wt &* Int32(p & 0xFF) &+ wb &* Int32(q & 0xFF))
            }
            return
        }
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
