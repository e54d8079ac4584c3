import SkeletonProtocol
import SkeletonSettings

/// The system going down, as the daemon sees it after `shutdown`.
struct GoingDown {
    var mode: ShutdownMode

    /// The error for a command that would take the skeleton off the screen now (hide,
    /// deactivate, quit).
    func refusal(_ command: String) -> ProtocolError {
        ProtocolError(.goingDown, "\(command) refused: the system is going down (\(mode.rawValue)) and the skeleton stays until the power is off")
    }
}
