import SkeletonLayout

/// One command of psplash's FIFO protocol, as `psplash-write` sends them (each ends with a NUL;
/// a newline ends one too, for `echo` in scripts): `PROGRESS N` (0 to 100), `MSG TEXT`, `QUIT`.
public enum PsplashCommand: Sendable, Equatable {
    case progress(Int)
    case message(String)
    case quit

    /// The command in `text`, or why it is not one.
    public static func parse(_ text: String) -> Result<PsplashCommand, PsplashError> {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        let word = trimmed.prefix { $0 != " " && $0 != "\t" }
        let argument = String(trimmed.dropFirst(word.count).drop { $0 == " " || $0 == "\t" })
        switch word {
        case "QUIT":
            return .success(.quit)
        case "MSG":
            return .success(.message(argument))
        case "PROGRESS":
            guard let value = ProgressValue.percent(parsing: argument.trimmingSuffix(while: { $0 == " " || $0 == "\t" })) else {
                return .failure(PsplashError("PROGRESS takes \(ProgressValue.percentRequirement), found \"\(argument)\""))
            }
            return .success(.progress(value))
        default:
            return .failure(PsplashError("unknown command \"\(word)\": psplash knows PROGRESS N, MSG TEXT and QUIT"))
        }
    }
}

/// Why a psplash command was refused.
public struct PsplashError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

extension String {
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var s = self
        while let last = s.last, predicate(last) { s.removeLast() }
        return s
    }
}
