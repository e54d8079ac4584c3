/// Why an image file could not be read: the file and the reason.
public struct ImageFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
