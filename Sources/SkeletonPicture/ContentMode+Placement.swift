import SkeletonLayout
import SkeletonRender

extension ContentMode {
    /// Where a picture of `picture` pixels lands in a box of `box` pixels: a rectangle in the
    /// box's coordinates that may overflow it (fill, center) or leave part of it empty (fit).
    /// Sizes are rounded to the nearest pixel (at least 1), and the rectangle centred with the
    /// odd pixel to the right and bottom.
    public func placement(picture: (width: Int, height: Int), box: (width: Int, height: Int)) -> PixelRect {
        let (pw, ph) = picture, (bw, bh) = box
        let width: Int, height: Int
        switch self {
        case .scaleToFill:
            return PixelRect(x: 0, y: 0, width: bw, height: bh)
        case .center:
            (width, height) = (pw, ph)
        case .scaleAspectFit, .scaleAspectFill:
            // Width-bound when the picture is relatively wider than the box (pw/ph >= bw/bh).
            let widthBound = (pw * bh >= ph * bw) == (self == .scaleAspectFit)
            if widthBound {
                (width, height) = (bw, max(1, Self.rounded(ph * bw, over: pw)))
            } else {
                (width, height) = (max(1, Self.rounded(pw * bh, over: ph)), bh)
            }
        }
        return PixelRect(x: (bw - width) >> 1, y: (bh - height) >> 1, width: width, height: height)
    }

    /// `numerator / denominator` rounded to nearest, for non-negative values.
    static func rounded(_ numerator: Int, over denominator: Int) -> Int { (2 * numerator + denominator) / (2 * denominator) }
}
