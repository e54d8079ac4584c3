import SkeletonLayout

/// A layout's JSON as a person reads it, the same for the same layout: the top-level keys one
/// per line, each node on a line of its own (its children indented below it), keys in a fixed
/// order (kind, id, frame first), numbers as `JSONValue` writes them.
enum LayoutText {
    private static let leading = ["$schema", "name", "description", "canvas", "appearance", "presentation", "root",
                                  "kind", "id", "frame"]
    private static let nested = ["children", "row", "item"]

    static func write(_ layout: JSONValue) -> String {
        guard case .object(let members) = layout else { return layout.jsonText + "\n" }
        let lines = ordered(members).map { key, value in
            "  \(quoted(key)): " + (key == "root" ? node(value, indent: "  ") : compact(value))
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// A node on one line, with its nested nodes below it, one per line.
    private static func node(_ value: JSONValue, indent: String) -> String {
        guard case .object(let members) = value else { return compact(value) }
        let own = ordered(members).filter { !nested.contains($0.0) }.map { "\(quoted($0.0)): \(compact($0.1))" }
        var text = "{" + own.joined(separator: ", ")
        for key in nested {
            guard let child = members[key] else { continue }
            let inner = indent + "  "
            switch child {
            case .array(let nodes):
                let body = nodes.map { inner + "  " + node($0, indent: inner + "  ") }.joined(separator: ",\n")
                text += ",\n\(inner)\(quoted(key)): [" + (nodes.isEmpty ? "]" : "\n" + body + "\n\(inner)]")
            default:
                text += ",\n\(inner)\(quoted(key)): " + node(child, indent: inner)
            }
        }
        return text + "}"
    }

    private static func compact(_ value: JSONValue) -> String {
        switch value {
        case .object(let members):
            return "{" + ordered(members).map { "\(quoted($0.0)): \(compact($0.1))" }.joined(separator: ", ") + "}"
        case .array(let items):
            return "[" + items.map(compact).joined(separator: ", ") + "]"
        default:
            return value.jsonText
        }
    }

    private static func ordered(_ members: [String: JSONValue]) -> [(String, JSONValue)] {
        members.sorted { a, b in
            let ia = leading.firstIndex(of: a.key) ?? leading.count, ib = leading.firstIndex(of: b.key) ?? leading.count
            return ia != ib ? ia < ib : a.key < b.key
        }.map { ($0.key, $0.value) }
    }

    private static func quoted(_ key: String) -> String { JSONValue.string(key).jsonText }
}
