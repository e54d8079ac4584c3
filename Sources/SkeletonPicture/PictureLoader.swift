import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// Loads pictures once and keeps them: each source is decoded on first use and kept (or the
/// error it gave, so a broken file is not read again each frame), and each placement of it
/// (source, box size, content mode) is scaled once and kept, so nothing is decoded or resampled
/// per frame; except that a picture of more than `keptPixels` is not kept once placed (an
/// 8192x8192 picture is 256 MiB: a kiosk must not carry it for its placements' sake). `removeAll()`
/// forgets everything (a reload). Not thread-safe: one owner (the daemon's worker) calls it.
public final class PictureLoader {
    /// The directory of the firmware's BGRT files (`image`, `xoffset`, `yoffset`, `status`).
    public let bgrtDirectory: String
    /// The most pixels a picture may have; larger ones are refused before they are allocated.
    public let maxPixels: Int
    /// How many times a picture file was read and decoded, successfully or not (PNG or BMP):
    /// the cache's witness.
    public private(set) var decodeCount = 0
    /// Decoded pictures larger than this (in pixels) are dropped once placed: 4 megapixels, 16 MiB.
    public static let keptPixels = 4 * 1024 * 1024

    private var pictures: [PictureSource: Result<Picture, PictureError>] = [:]
    private var logo: Result<BGRTLogo, PictureError>?
    private var rendered: [RenderKey: PixelBuffer] = [:]

    public init(bgrtDirectory: String = "/sys/firmware/acpi/bgrt", maxPixels: Int = 64 * 1024 * 1024) {
        self.bgrtDirectory = bgrtDirectory
        self.maxPixels = maxPixels
    }

    /// The decoded, unscaled picture of `source`, decoded on the first call only.
    public func load(_ source: PictureSource) throws(PictureError) -> Picture {
        if let known = pictures[source] { return try known.get() }
        let result: Result<Picture, PictureError>
        switch source {
        case .file(let path): result = loadPNG(path)
        case .bgrt: result = Result { () throws(PictureError) in try bgrtLogo().picture }
        }
        pictures[source] = result
        return try result.get()
    }

    /// Forgets every picture, placement and error kept, so that the next use reads the files again.
    public func removeAll() {
        pictures = [:]
        logo = nil
        rendered = [:]
    }

    /// The picture placed in a box of `width` x `height` output pixels by `mode`: scaled with
    /// `PictureScaler` (bilinear when enlarging, area averaging when reducing, never nearest),
    /// transparent outside the picture, premultiplied ARGB8888. Kept per (source, size, mode):
    /// the buffer returned is shared and must not be written.
    public func render(_ source: PictureSource, mode: ContentMode, width: Int, height: Int) throws(PictureError) -> PixelBuffer {
        precondition(width > 0 && height > 0, "a picture's box needs a positive size")
        let key = RenderKey(source: source, mode: mode, width: width, height: height)
        if let buffer = rendered[key] { return buffer }
        let picture = try load(source)
        let placement = mode.placement(picture: (picture.width, picture.height), box: (width, height))
        let buffer = PictureScaler.render(picture.pixels, into: placement, width: width, height: height)
        rendered[key] = buffer
        if picture.width * picture.height > Self.keptPixels { pictures[source] = nil }
        return buffer
    }

    /// Where the firmware's logo goes on an output of this size, and how large (see
    /// `BGRTPlacement` for the rule), or why there is none. `firmwareWidth` and `firmwareHeight`
    /// are the mode the firmware drew at when the caller knows it (the panel's native mode);
    /// without them it is inferred from the logo's horizontal centring.
    public func bgrtPlacement(outputWidth: Int, outputHeight: Int, firmwareWidth: Int? = nil,
                              firmwareHeight: Int? = nil) throws(PictureError) -> (x: Int, y: Int, width: Int, height: Int) {
        let logo = try bgrtLogo()
        guard logo.quarterTurns == 0 else {
            throw PictureError(file: bgrtDirectory + "/status",
                               reason: "the firmware's logo is to be turned \(logo.quarterTurns * 90) degrees, which is not supported")
        }
        var firmware: (width: Int, height: Int)?
        if let firmwareWidth, let firmwareHeight { firmware = (firmwareWidth, firmwareHeight) }
        let placement = BGRTPlacement(logo: (logo.picture.width, logo.picture.height), offset: (logo.xOffset, logo.yOffset),
                                      output: (outputWidth, outputHeight), firmware: firmware)
        return (placement.x, placement.y, placement.width, placement.height)
    }

    private func bgrtLogo() throws(PictureError) -> BGRTLogo {
        if let logo { return try logo.get() }
        let result = Result { () throws(PictureError) in try BGRTLogo.read(directory: bgrtDirectory, maxPixels: maxPixels) }
        decodeCount += 1
        logo = result
        return try result.get()
    }

    private func loadPNG(_ path: String) -> Result<Picture, PictureError> {
        let bytes: [UInt8]
        do { bytes = try Self.readFile(path, maxPixels: maxPixels) } catch { return .failure(error) }
        decodeCount += 1
        do {
            return .success(Picture(pixels: try PNGDecoder.decode(bytes, as: .premultipliedARGB, maxPixels: maxPixels)))
        } catch {
            return .failure(PictureError(file: path, reason: error.reason))
        }
    }

    /// A whole picture file, through SkeletonSystem's size-bounded read: at most 4 bytes per
    /// allowed pixel and 1 MiB more (an uncompressed BMP, or a PNG that compressed nothing).
    static func readFile(_ path: String, maxPixels: Int) throws(PictureError) -> [UInt8] {
        switch SystemCalls.readRegularFile(path, limit: maxPixels * 4 + (1 << 20)) {
        case .success(let bytes): return bytes
        case .failure(let error): throw PictureError(file: path, reason: error.description)
        }
    }
}
