/// Builds paths such as `root.children[2].frame[3]` while a decoder walks a document.
public struct JSONPath: Sendable, CustomStringConvertible {
    public let text: String

    public init(text: String) { self.text = text }

    public static let document = JSONPath(text: "")

    public func key(_ name: String) -> JSONPath { JSONPath(text: text.isEmpty ? name : text + "." + name) }
    public func index(_ i: Int) -> JSONPath { JSONPath(text: text + "[\(i)]") }

    public var description: String { text }
}
