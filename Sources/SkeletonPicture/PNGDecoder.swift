import CSkeletonPNG
import SkeletonRender

/// Reads PNGs with libpng (`skpng_open`, `skpng_read`, `skpng_close` in CSkeletonPNG): any bit
/// depth, colour type and interlacing, tRNS as alpha. Every chunk's CRC is checked; a file that
/// ends early is refused, and one over the pixel limit before its pixels are allocated.
public enum PNGDecoder {
    /// The pixels a decode gives.
    public enum PixelFormat: Sendable {
        /// XRGB8888 with alpha dropped: screens and golden images.
        case xrgb
        /// Premultiplied ARGB8888: pictures drawn over the skeleton.
        case premultipliedARGB
    }

    /// 64 megapixels (8192x8192): above any screen or picture the project draws.
    public static let defaultMaxPixels = 64 * 1024 * 1024

    public static func decode(_ bytes: [UInt8], as format: PixelFormat = .xrgb,
                              maxPixels: Int = defaultMaxPixels) throws(PNGDecodingError) -> PixelBuffer {
        var message = [CChar](repeating: 0, count: 256)
        let result: Result<PixelBuffer, PNGDecodingError> = bytes.withUnsafeBufferPointer { input in
            var width: UInt32 = 0, height: UInt32 = 0
            guard let reader = skpng_open(input.baseAddress, input.count, &width, &height, &message, message.count) else {
                let reason = text(message)
                return .failure(PNGDecodingError(reason: reason == "no PNG signature" ? "not a PNG (no PNG signature)" : reason))
            }
            defer { skpng_close(reader) }
            let pixels = Int(width) * Int(height)
            guard pixels <= maxPixels else {
                return .failure(PNGDecodingError(reason: "\(width)x\(height) is \(pixels) pixels, over the limit of \(maxPixels)"))
            }
            let image = PixelBuffer(width: Int(width), height: Int(height))
            let canvas = image.canvas
            let mode = format == .xrgb ? SKPNG_XRGB : SKPNG_PREMULTIPLIED_ARGB
            guard skpng_read(reader, canvas.row(0), canvas.stride, mode, &message, message.count) == 0 else {
                return .failure(PNGDecodingError(reason: text(message)))
            }
            return .success(image)
        }
        return try result.get()
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
