import CSkeletonPNG
import SkeletonRender

/// PNGs to premultiplied ARGB8888 through libpng (`skpng_open`, `skpng_read` with
/// `SKPNG_PREMULTIPLIED_ARGB`, `skpng_close` in CSkeletonPNG): any bit depth, colour type and
/// interlacing, tRNS as alpha. Every chunk's CRC is checked; a file that ends early is refused,
/// and one over the pixel limit is refused before its pixels are allocated.
enum PNGPictureDecoder {
    /// The picture, or why not (the reason only: the caller names the file).
    static func decode(_ bytes: [UInt8], maxPixels: Int) -> Result<PixelBuffer, PictureDecodingFailure> {
        var message = [CChar](repeating: 0, count: 256)
        return bytes.withUnsafeBufferPointer { input in
            var width: UInt32 = 0, height: UInt32 = 0
            guard let reader = skpng_open(input.baseAddress, input.count, &width, &height, &message, message.count) else {
                let reason = text(message)
                return .failure(PictureDecodingFailure(reason == "no PNG signature" ? "not a PNG (no PNG signature)" : reason))
            }
            defer { skpng_close(reader) }
            if let failure = PictureDecodingFailure.overLimit(width: Int(width), height: Int(height), maxPixels: maxPixels) {
                return .failure(failure)
            }
            let image = PixelBuffer(width: Int(width), height: Int(height))
            let canvas = image.canvas
            guard skpng_read(reader, canvas.row(0), canvas.stride, SKPNG_PREMULTIPLIED_ARGB, &message, message.count) == 0 else {
                return .failure(PictureDecodingFailure(text(message)))
            }
            return .success(image)
        }
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
