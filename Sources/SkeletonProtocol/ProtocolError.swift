/// An error reply's code and message. The message names the field at fault.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Stable machine-readable error codes.
    public enum Code: String, Sendable, CaseIterable {
        case badJSON = "bad_json"
        case badRequest = "bad_request"
        case unknownCommand = "unknown_command"
        case unknownLayout = "unknown_layout"
        case badLayoutName = "bad_layout_name"
        case invalidLayout = "invalid_layout"
        case lineTooLong = "line_too_long"
        case notShowing = "not_showing"
        case permissionDenied = "permission_denied"
        case reloadFailed = "reload_failed"
        /// The system is going down (`shutdown`): the skeleton stays until the power is off.
        case goingDown = "going_down"
        case internalError = "internal"
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
