/// Text that is not JSON, with the line and column where parsing stopped.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var reason: String

    public var description: String { "line \(line), column \(column): \(reason)" }
}
