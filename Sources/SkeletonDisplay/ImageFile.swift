#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SkeletonRender

/// Writes images to files, choosing the format by extension, atomically (write then rename).
public enum ImageFile {
    public enum Format: String, Sendable { case png, ppm }

    /// The format for a file name, or nil when its extension is neither .png nor .ppm.
    public static func format(for path: String) -> Format? {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") { return .png }
        if lower.hasSuffix(".ppm") { return .ppm }
        return nil
    }

    public static func write(_ canvas: Canvas, to path: String, format: Format) throws {
        let bytes = format == .png ? PNGEncoder.encode(canvas) : PPMEncoder.encode(canvas)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    public static func readPNG(_ path: String) throws -> PixelBuffer {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try PNGDecoder.decode([UInt8](data))
    }
}
