import SkeletonLayout

/// Premultiplied ARGB8888 pixels (alpha in the top byte) and where their top-left corner goes
/// on the output: a picture or a text made once for one output.
public struct Sprite: @unchecked Sendable {
    public let pixels: PixelBuffer
    public let x: Int
    public let y: Int

    public init(pixels: PixelBuffer, x: Int, y: Int) {
        self.pixels = pixels
        self.x = x
        self.y = y
    }

    public var bounds: PixelRect { PixelRect(x: x, y: y, width: pixels.width, height: pixels.height) }
}
