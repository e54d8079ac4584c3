import SkeletonRender

/// A decoded picture: premultiplied ARGB8888 (alpha in the top byte, each colour already
/// multiplied by it), shared and never written after decoding.
public struct Picture: Sendable {
    public let pixels: PixelBuffer

    public init(pixels: PixelBuffer) { self.pixels = pixels }

    public var width: Int { pixels.width }
    public var height: Int { pixels.height }
}
