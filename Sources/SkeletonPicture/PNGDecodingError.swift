/// Why a PNG could not be read.
public struct PNGDecodingError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "cannot read PNG: \(reason)" }
}
