/// Builds paths such as `root.children[2].frame[3]` while a decoder walks a document.
struct JSONPath: Sendable, CustomStringConvertible {
    let text: String

    static let document = JSONPath(text: "")

    func key(_ name: String) -> JSONPath { JSONPath(text: text.isEmpty ? name : text + "." + name) }
    func index(_ i: Int) -> JSONPath { JSONPath(text: text + "[\(i)]") }

    var description: String { text }
}
