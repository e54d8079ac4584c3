import SkeletonLayout
import SkeletonRender

/// A label's coverage, one byte per pixel of its box: glyph bitmaps are added clipped to the
/// box (overlaps combine as alpha does, `a + b - ab`), then painted in one colour.
struct InkMask {
    let width: Int
    let height: Int
    private var coverage: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        coverage = [UInt8](repeating: 0, count: width * height)
    }

    /// Adds `glyph` with its top-left pixel at (`x`, `y`); what falls outside the box is dropped.
    mutating func add(_ glyph: GlyphBitmap, x: Int, y: Int) {
        let left = max(0, -x), top = max(0, -y)
        let right = min(glyph.width, width - x), bottom = min(glyph.height, height - y)
        guard left < right, top < bottom else { return }
        let boxWidth = width
        coverage.withUnsafeMutableBufferPointer { box in
            glyph.alpha.withUnsafeBufferPointer { source in
                for row in top..<bottom {
                    let from = source.baseAddress! + row * glyph.width
                    let to = box.baseAddress! + (y + row) * boxWidth + x
                    for column in left..<right {
                        let a = UInt32(to[column]), b = UInt32(from[column])
                        if b != 0 { to[column] = UInt8(a + b - (a * b + 127) / 255) }
                    }
                }
            }
        }
    }

    /// The box in premultiplied ARGB8888 (alpha in the top byte): `color` at each pixel's
    /// coverage times the colour's own alpha, transparent where there is no ink.
    func pixels(_ color: Color) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        let canvas = buffer.canvas
        let opacity = UInt32(color.alpha), red = UInt32(color.red), green = UInt32(color.green), blue = UInt32(color.blue)
        coverage.withUnsafeBufferPointer { box in
            for y in 0..<height {
                let row = canvas.row(y)
                for x in 0..<width where box[y * width + x] != 0 {
                    let a = (UInt32(box[y * width + x]) * opacity + 127) / 255
                    row[x] = a << 24 | ((red * a + 127) / 255) << 16 | ((green * a + 127) / 255) << 8 | (blue * a + 127) / 255
                }
            }
        }
        return buffer
    }
}
