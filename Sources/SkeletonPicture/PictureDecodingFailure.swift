/// Why bytes in memory are not a picture, before the loader names the file (`PictureError`).
struct PictureDecodingFailure: Error {
    let reason: String

    init(_ reason: String) { self.reason = reason }

    /// The refusal of a picture of more than `maxPixels`, with the limit; nil within it.
    static func overLimit(width: Int, height: Int, maxPixels: Int) -> PictureDecodingFailure? {
        let pixels = width * height
        guard pixels > maxPixels else { return nil }
        return PictureDecodingFailure("\(width)x\(height) is \(pixels) pixels, over the limit of \(maxPixels)")
    }
}
