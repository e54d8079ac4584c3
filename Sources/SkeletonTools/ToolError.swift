import SkeletonLayout

/// A user-facing failure of an offline command: the lines to print on stderr.
public struct ToolError: Error, Sendable, CustomStringConvertible {
    public var lines: [String]

    public init(_ lines: [String]) { self.lines = lines }
    public init(_ line: String) { self.lines = [line] }
    public init(_ error: LayoutError) { self.lines = error.lines }

    public var description: String { lines.joined(separator: "\n") }
}
