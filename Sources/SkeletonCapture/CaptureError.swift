/// Why a page could not be captured; the text says where and why.
public struct CaptureError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
