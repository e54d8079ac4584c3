/// Typed reads of JSON values that record an issue (path, expectation, what was found) and
/// return nil instead of stopping, so one pass reports every problem in a file.
public struct ValueReader {
    public init() {}

    public var issues: [LayoutIssue] = []

    public mutating func fail(_ path: JSONPath, _ message: String) {
        issues.append(LayoutIssue(path: path.text, message: message))
    }

    public mutating func object(_ value: JSONValue, _ path: JSONPath) -> ObjectReader? {
        guard case .object(let members) = value else {
            fail(path, "expected an object, found \(value.typeDescription)")
            return nil
        }
        return ObjectReader(members: members, path: path)
    }

    public mutating func array(_ value: JSONValue, _ path: JSONPath) -> [JSONValue]? {
        guard case .array(let items) = value else {
            fail(path, "expected an array, found \(value.typeDescription)")
            return nil
        }
        return items
    }

    public mutating func string(_ value: JSONValue, _ path: JSONPath) -> String? {
        guard case .string(let s) = value else {
            fail(path, "expected a string, found \(value.typeDescription)")
            return nil
        }
        return s
    }

    public mutating func bool(_ value: JSONValue, _ path: JSONPath) -> Bool? {
        guard case .bool(let b) = value else {
            fail(path, "expected true or false, found \(value.typeDescription)")
            return nil
        }
        return b
    }

    /// A number within `range`; the message names the range.
    public mutating func number(_ value: JSONValue, _ path: JSONPath, in range: ClosedRange<Double>,
                         exclusiveMinimum: Bool = false) -> Double? {
        guard case .number(let n) = value else {
            fail(path, "expected a number, found \(value.typeDescription)")
            return nil
        }
        if n < range.lowerBound || n > range.upperBound || (exclusiveMinimum && n == range.lowerBound) {
            fail(path, "\(JSONValue.formatNumber(n)) is out of range: expected \(describe(range, exclusiveMinimum))")
            return nil
        }
        return n
    }

    public mutating func integer(_ value: JSONValue, _ path: JSONPath, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let n) = value else {
            fail(path, "expected an integer, found \(value.typeDescription)")
            return nil
        }
        guard n == n.rounded() else {
            fail(path, "expected an integer, found \(JSONValue.formatNumber(n))")
            return nil
        }
        guard n >= Double(range.lowerBound), n <= Double(range.upperBound) else {
            fail(path, "\(JSONValue.formatNumber(n)) is out of range: expected an integer from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return Int(n)
    }

    public mutating func enumeration<E: RawRepresentable & CaseIterable>(_ value: JSONValue, _ path: JSONPath, _ type: E.Type) -> E?
    where E.RawValue == String {
        let choices = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .string(let s) = value else {
            fail(path, "expected one of \(choices), found \(value.typeDescription)")
            return nil
        }
        guard let e = E(rawValue: s) else {
            var message = "unknown value \"\(s)\": expected one of \(choices)"
            if let guess = ObjectReader.closest(to: s, in: E.allCases.map(\.rawValue)) {
                message += " (did you mean \"\(guess)\"?)"
            }
            fail(path, message)
            return nil
        }
        return e
    }

    public mutating func color(_ value: JSONValue, _ path: JSONPath) -> Color? {
        guard case .string(let s) = value else {
            fail(path, "expected a colour string (a name, #RRGGBB, #RRGGBBAA, rgb() or rgba()), found \(value.typeDescription)")
            return nil
        }
        switch Color.parse(s) {
        case .success(let c): return c
        case .failure(let e): fail(path, e.message); return nil
        }
    }

    /// A gradient: a base colour string, `{"base": C, "secondary": C}`, or a list of at least two colours.
    public mutating func gradient(_ value: JSONValue, _ path: JSONPath) -> GradientSpec? {
        switch value {
        case .string:
            return color(value, path).map(GradientSpec.base)
        case .array(let items):
            guard items.count >= 2 else {
                fail(path, "a gradient list needs at least 2 colours, found \(items.count)")
                return nil
            }
            var colors: [Color] = []
            for (i, item) in items.enumerated() {
                if let c = color(item, path.index(i)) { colors.append(c) }
            }
            return colors.count == items.count ? .colors(colors) : nil
        case .object:
            guard var reader = object(value, path) else { return nil }
            let base = reader.member("base").flatMap { color($0.value, $0.path) }
            let secondary = reader.member("secondary").flatMap { color($0.value, $0.path) }
            if !reader.has("base") { fail(path, "missing key \"base\": a gradient object needs a base colour") }
            issues += reader.unknownKeyIssues()
            guard let base else { return nil }
            if let secondary { return .baseAndSecondary(base, secondary) }
            return reader.has("secondary") ? nil : .base(base)
        default:
            fail(path, "expected a gradient (a colour, {\"base\", \"secondary\"} or a list of colours), found \(value.typeDescription)")
            return nil
        }
    }

    /// A count from `range`, or "auto".
    public mutating func repeatCount(_ value: JSONValue, _ path: JSONPath, in range: ClosedRange<Int>) -> RepeatCount? {
        let expected = "an integer from \(range.lowerBound) to \(range.upperBound) or \"auto\""
        if case .string(let s) = value {
            if s == "auto" { return .auto }
            fail(path, "expected \(expected), found \"\(s)\"")
            return nil
        }
        guard case .number = value else {
            fail(path, "expected \(expected), found \(value.typeDescription)")
            return nil
        }
        return integer(value, path, in: range).map(RepeatCount.count)
    }

    /// A frame component: a number, "N%" or (for sizes) "fill".
    public mutating func dimension(_ value: JSONValue, _ path: JSONPath, isSize: Bool) -> Dimension? {
        let expected = isSize ? "a number of at least 0, \"N%\" or \"fill\"" : "a number or \"N%\""
        switch value {
        case .number(let n):
            if isSize && n < 0 {
                fail(path, "\(JSONValue.formatNumber(n)) is out of range: expected \(expected)")
                return nil
            }
            return .points(n)
        case .string(let s):
            if s == "fill" {
                if isSize { return .fill }
                fail(path, "\"fill\" is only for a width or a height: expected \(expected)")
                return nil
            }
            if s.hasSuffix("%"), let p = Double(s.dropLast()), p.isFinite {
                if isSize && p < 0 {
                    fail(path, "\"\(s)\" is out of range: expected \(expected)")
                    return nil
                }
                return .percent(p)
            }
            fail(path, "expected \(expected), found \"\(s)\"")
            return nil
        default:
            fail(path, "expected \(expected), found \(value.typeDescription)")
            return nil
        }
    }

    private func describe(_ range: ClosedRange<Double>, _ exclusiveMinimum: Bool) -> String {
        let low = JSONValue.formatNumber(range.lowerBound)
        let high = JSONValue.formatNumber(range.upperBound)
        if range.upperBound == .greatestFiniteMagnitude {
            return exclusiveMinimum ? "a number greater than \(low)" : "a number of at least \(low)"
        }
        return exclusiveMinimum ? "a number greater than \(low), at most \(high)" : "a number from \(low) to \(high)"
    }
}
