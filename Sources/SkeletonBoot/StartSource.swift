/// The start layout as the frame cache keys it: its name, its file's bytes, and the file's
/// path (nil for the built-in layout).
public struct StartSource: Equatable, Sendable {
    public var name: String
    public var text: [UInt8]
    public var path: String?

    public init(name: String, text: [UInt8], path: String?) {
        self.name = name
        self.text = text
        self.path = path
    }
}
