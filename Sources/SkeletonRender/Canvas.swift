/// A borrowed view of XRGB8888 pixels: a pointer, a size and a stride in pixels. The memory
/// may be a `PixelBuffer` or a mapped DRM dumb buffer of any pitch; the canvas does not own it.
public struct Canvas: @unchecked Sendable {
    public let base: UnsafeMutablePointer<UInt32>
    public let width: Int
    public let height: Int
    /// Pixels from the start of one row to the start of the next (a DRM pitch divided by 4).
    public let stride: Int

    public init(base: UnsafeMutablePointer<UInt32>, width: Int, height: Int, stride: Int) {
        precondition(width >= 0 && height >= 0 && stride >= width, "canvas stride must cover its width")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { base + y * stride }

    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            return base[y * stride + x]
        }
        nonmutating set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            base[y * stride + x] = newValue
        }
    }

    /// Fills a rectangle (clipped to the canvas) with one pixel value.
    public func fill(_ rect: PixelRect, with pixel: UInt32) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            (row(y) + r.x).update(repeating: pixel, count: r.width)
        }
    }

    /// Copies a rectangle from another canvas of the same size, row by row, honouring both strides.
    public func copy(_ rect: PixelRect, from source: Canvas) {
        let r = rect.intersection(bounds).intersection(source.bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            (row(y) + r.x).update(from: source.row(y) + r.x, count: r.width)
        }
    }

    /// Writes `mix(under, over, alpha)` into this canvas inside `rect`: the cross-dissolve of
    /// `over` at opacity `alpha` (0...255) on top of `under`. Any of the three may be this canvas.
    public func dissolve(_ rect: PixelRect, under: Canvas, over: Canvas, alpha: UInt32) {
        let r = rect.intersection(bounds).intersection(under.bounds).intersection(over.bounds)
        guard !r.isEmpty else { return }
        if alpha >= 255 { copy(r, from: over); return }
        if alpha == 0 { copy(r, from: under); return }
        for y in r.y..<r.maxY {
            let d = row(y) + r.x, u = under.row(y) + r.x, o = over.row(y) + r.x
            for i in 0..<r.width {
                d[i] = PixelMath.blend(under: u[i], over: o[i], alpha: alpha)
            }
        }
    }
}
