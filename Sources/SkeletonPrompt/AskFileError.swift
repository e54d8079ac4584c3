/// Why an ask file cannot be answered: its path, the line when one is to blame, and the reason.
public struct AskFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let reason: String

    public init(file: String, line: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}
