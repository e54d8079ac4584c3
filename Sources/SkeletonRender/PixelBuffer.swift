#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SkeletonLayout

/// Owned XRGB8888 pixels in ordinary memory (a render target, a shadow buffer, a snapshot).
public final class PixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    private let storage: UnsafeMutablePointer<UInt32>

    public init(width: Int, height: Int, fill: UInt32 = 0) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        self.width = width
        self.height = height
        if fill == 0 {
            // calloc hands out zero pages the kernel maps lazily: no pass over the memory.
            storage = calloc(width * height, MemoryLayout<UInt32>.stride)!.assumingMemoryBound(to: UInt32.self)
        } else {
            storage = malloc(width * height * MemoryLayout<UInt32>.stride)!.assumingMemoryBound(to: UInt32.self)
            storage.initialize(repeating: fill, count: width * height)
        }
    }

    public convenience init(size: Size, fill: UInt32 = 0) {
        self.init(width: size.width, height: size.height, fill: fill)
    }

    deinit { free(storage) }

    public var size: Size { Size(width: width, height: height) }

    public var canvas: Canvas { Canvas(base: storage, width: width, height: height, stride: width) }

    public subscript(x: Int, y: Int) -> UInt32 {
        get { canvas[x, y] }
        set { canvas[x, y] = newValue }
    }

    /// The pixels row-major, for comparison and encoding.
    public var pixels: [UInt32] { Array(UnsafeBufferPointer(start: storage, count: width * height)) }

    public func copy() -> PixelBuffer {
        let other = PixelBuffer(width: width, height: height)
        other.canvas.copy(canvas.bounds, from: canvas)
        return other
    }
}
