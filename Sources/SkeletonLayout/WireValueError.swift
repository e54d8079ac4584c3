/// Why an option's text is not a value of the wire: the words the JSON readers use.
public struct WireValueError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    init(_ issues: [LayoutIssue]) { description = issues.map(\.message).joined(separator: "; ") }
}
