extension LayoutContent {
    /// `{"ID": {"text": "..."} | {"value": 0.42 | "indeterminate"}}`, as a request's `content`
    /// and a `status` reply write it; the inverse of `json`.
    public static func read(_ value: JSONValue, _ path: JSONPath, _ reader: inout ValueReader) -> LayoutContent {
        var result = LayoutContent()
        guard case .object(let members) = value else {
            reader.fail(path, "expected {\"ID\": {\"text\": ...} or {\"value\": ...}}, found \(value.typeDescription)")
            return result
        }
        for id in members.keys.sorted() {
            let entryPath = path.key(id)
            guard var entry = reader.object(members[id]!, entryPath) else { continue }
            let text = entry.member("text").flatMap { reader.string($0.value, $0.path) }
            let number = entry.member("value").flatMap { ProgressValue.read($0.value, $0.path, &reader) }
            reader.issues += entry.unknownKeyIssues()
            switch (text, number) {
            case (let text?, nil): result.texts[id] = text
            case (nil, let number?): result.values[id] = number
            case (.some, .some): reader.fail(entryPath, "give a label its \"text\" or a bar its \"value\", not both")
            case (nil, nil): if reader.issues.isEmpty { reader.fail(entryPath, "expected {\"text\": ...} or {\"value\": ...}") }
            }
        }
        return result
    }
}
