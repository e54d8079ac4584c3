/// What a progress bar shows: a known fraction, or an indeterminate sliding segment.
public enum ProgressValue: Sendable, Hashable, CustomStringConvertible {
    case fraction(Double)
    case indeterminate

    /// A fraction clamped to 0...1.
    public static func clamped(_ value: Double) -> ProgressValue { .fraction(min(1, max(0, value.isNaN ? 0 : value))) }

    public var fraction: Double? {
        if case .fraction(let v) = self { return v }
        return nil
    }

    public var json: JSONValue {
        switch self {
        case .fraction(let v): return .number(v)
        case .indeterminate: return .string("indeterminate")
        }
    }

    public var description: String { json.jsonText }
}
