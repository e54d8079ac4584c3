import SkeletonLayout
import SkeletonProtocol

/// What a command to the screen answers: the reply's fields or why it was refused, the state the
/// reply waits for (`wait`), and the output the command named (whether its monitor is connected
/// is the display's to say, once the command's effects are carried out).
struct CommandAnswer: Equatable {
    var result: Result<[String: JSONValue], ProtocolError>
    var awaiting: SessionState?
    var output: String?

    init(_ fields: [String: JSONValue], awaiting: SessionState? = nil, output: String? = nil) {
        result = .success(fields)
        self.awaiting = awaiting
        self.output = output
    }

    init(refusing error: ProtocolError) { result = .failure(error) }

    var fields: [String: JSONValue]? { try? result.get() }
    var error: ProtocolError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
