import CSkeletonPNG
import SkeletonRender

/// Encodes XRGB8888 pixels as an 8-bit RGB PNG with libpng (`skpng_write` and `skpng_free` in
/// CSkeletonPNG): every row filtered with Sub, zlib level 6.
public enum PNGEncoder {
    public static func encode(_ canvas: Canvas) -> [UInt8] {
        var bytes: UnsafeMutablePointer<UInt8>?
        var count = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = skpng_write(canvas.base, canvas.stride, UInt32(canvas.width), UInt32(canvas.height), &bytes, &count, &message, message.count)
        // Only memory can fail: the sizes are a canvas's, within what PNG allows.
        precondition(status == 0, "libpng could not encode: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        defer { skpng_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    public static func encode(_ buffer: PixelBuffer) -> [UInt8] { encode(buffer.canvas) }
}
