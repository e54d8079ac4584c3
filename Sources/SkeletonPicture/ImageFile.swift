import SkeletonRender
import SkeletonSystem

/// Image files: written in the format their extension names, atomically (a reader sees the
/// old file or the whole new one), and PNGs read back, through SkeletonSystem's file calls.
public enum ImageFile {
    public enum Format: String, Sendable { case png, ppm }

    /// The format for a file name, or nil when its extension is neither .png nor .ppm.
    public static func format(for path: String) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") { return .png }
        if lower.hasSuffix(".ppm") { return .ppm }
        return nil
    }

    public static func write(_ canvas: Canvas, to path: String, format: Format) throws(Errno) {
        let bytes = format == .png ? PNGEncoder.encode(canvas) : PPMEncoder.encode(canvas)
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try SystemCalls.writeFileAtomically(path, [raw]) }
        }
        try result.get()
    }

    /// A PNG file's pixels as XRGB8888 (at most 256 MiB of file).
    public static func readPNG(_ path: String) throws(ImageFileError) -> PixelBuffer {
        let bytes: [UInt8]
        switch SystemCalls.readRegularFile(path, limit: 256 << 20) {
        case .success(let b): bytes = b
        case .failure(let error): throw ImageFileError(path: path, reason: "\(error)")
        }
        do { return try PNGDecoder.decode(bytes) } catch { throw ImageFileError(path: path, reason: error.description) }
    }
}
