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

    /// The whole percents of the percent form, psplash's `PROGRESS N` and Plymouth's
    /// `system-update N`.
    public static let percentRange: ClosedRange<Int> = 0...100
    /// What the percent form takes, in the words of its refusals.
    public static let percentRequirement = "a whole number from \(percentRange.lowerBound) to \(percentRange.upperBound)"

    /// The percent form's number: `text` is a whole number in `percentRange` and nothing else
    /// (the protocol trims what it allows around it); nil for anything else.
    public static func percent(parsing text: some StringProtocol) -> Int? {
        guard let value = Int(text), percentRange.contains(value) else { return nil }
        return value
    }

    /// A percent of the percent form as the fraction a bar shows.
    public static func percent(_ value: Int) -> ProgressValue { .fraction(Double(value) / 100) }
}
