/// How a child process ended (waitpid(2)'s status).
public enum ProcessEnd: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case killed(signal: Int32)

    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .killed(let signal): "killed by signal \(signal)"
        }
    }
}
