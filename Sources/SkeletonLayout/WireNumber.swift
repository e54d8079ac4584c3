/// A number that layouts, control requests and the command line all take, with its one range:
/// read from JSON by `read` (the path in the refusal) or from an option's text by `parse`, and
/// refused in the same words by each.
public struct WireNumber: Sendable {
    public let range: ClosedRange<Double>
    public let exclusiveMinimum: Bool

    public init(_ range: ClosedRange<Double>, exclusiveMinimum: Bool = false) {
        self.range = range
        self.exclusiveMinimum = exclusiveMinimum
    }

    public func read(_ value: JSONValue, _ path: JSONPath, _ reader: inout ValueReader) -> Double? {
        reader.number(value, path, in: range, exclusiveMinimum: exclusiveMinimum)
    }

    /// An option's text: the number, or the refusal `read` gives.
    public func parse(_ text: String) -> Result<Double, WireValueError> {
        guard let number = Double(text), number.isFinite else { return .failure(WireValueError("expected a number, found \"\(text)\"")) }
        var reader = ValueReader()
        guard let value = read(.number(number), .document, &reader) else { return .failure(WireValueError(reader.issues)) }
        return .success(value)
    }
}

extension WireNumber {
    /// Seconds per sweep or pulse half-cycle (`animation.duration`).
    public static let animationDuration = WireNumber(0...600, exclusiveMinimum: true)
    /// Seconds of rest between sweeps (`animation.pause`).
    public static let animationPause = WireNumber(0...600)
    /// Extra seconds of delay per shape (`animation.stagger`).
    public static let animationStagger = WireNumber(0...60)
    /// A dissolve's seconds (`transition.duration`).
    public static let transitionDuration = WireNumber(0...60)
    /// A show's delay in seconds.
    public static let showDelay = WireNumber(0...3600)
}
