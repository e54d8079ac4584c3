extension ProgressValue {
    /// The fractions a bar takes.
    public static let range: ClosedRange<Double> = 0...1

    /// A number from 0 to 1 or "indeterminate", wherever it is written: a layout's `value`, a
    /// request's `progress` and `content`.
    public static func read(_ value: JSONValue, _ path: JSONPath, _ reader: inout ValueReader) -> ProgressValue? {
        if case .string("indeterminate") = value { return .indeterminate }
        if case .string = value {
            reader.fail(path, "expected a number from 0 to 1 or \"indeterminate\", found \(value.typeDescription)")
            return nil
        }
        return reader.number(value, path, in: range).map { .fraction($0) }
    }

    /// An option's text (`0.42`, `indeterminate`), refused in `read`'s words.
    public static func parse(_ text: String) -> Result<ProgressValue, WireValueError> {
        let value: JSONValue = text == "indeterminate" ? .string(text) : Double(text).map(JSONValue.number) ?? .string(text)
        var reader = ValueReader()
        guard let progress = read(value, .document, &reader) else { return .failure(WireValueError(reader.issues)) }
        return .success(progress)
    }
}
