/// Why a `run` flag's text was refused: what the flag takes, in the words the command line
/// reports.
public struct RunFlagError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
