/// One problem in a layout: where it is (a JSON path such as `root.children[2].frame[3]`) and why.
public struct LayoutIssue: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in one layout file.
public struct LayoutError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var issues: [LayoutIssue]

    public init(file: String, issues: [LayoutIssue]) {
        self.file = file
        self.issues = issues
    }

    /// One line per issue, `FILE: PATH: message`.
    public var lines: [String] { issues.map { "\(file): \($0)" } }

    public var description: String { lines.joined(separator: "\n") }
}
