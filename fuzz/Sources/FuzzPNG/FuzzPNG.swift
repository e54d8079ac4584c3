import SkeletonPicture
import SkeletonRender

/// A file through the PNG decoder; a picture it returns is read whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let image = decodePNG(Array(UnsafeBufferPointer(start: data, count: size))) { _ = image.pixels }
    return 0
}

/// The one place that names the decoder.
private func decodePNG(_ bytes: [UInt8]) -> PixelBuffer? {
    do {
        return try PNGDecoder.decode(bytes)
    } catch {
        _ = error.description
        return nil
    }
}
