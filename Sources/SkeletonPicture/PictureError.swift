/// Why a picture could not be loaded: the file, and what is wrong with it.
public struct PictureError: Error, Sendable, CustomStringConvertible {
    /// The file that could not be read or decoded.
    public let file: String
    /// Why: "no such file", "not a PNG (no PNG signature)", "truncated: ...", "IDAT: CRC error",
    /// "WxH is N pixels, over the limit of M", a BMP it cannot read...
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "cannot load picture \(file): \(reason)" }
}
