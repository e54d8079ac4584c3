/// How the system is going down (`shutdown`): what the shutdown layout's message says.
public enum ShutdownMode: String, Sendable, Equatable, CaseIterable {
    case poweroff
    case reboot
    case halt
    case kexec

    /// The message role's text unless the settings give another (`shutdown.messages`).
    public var defaultMessage: String {
        switch self {
        case .poweroff: return "Powering off"
        case .reboot, .kexec: return "Restarting"
        case .halt: return "Halting"
        }
    }

    /// Plymouth's `change-mode` argument for it (`--shutdown`, `--reboot`), when it names one.
    public init?(plymouthMode: String) {
        switch plymouthMode {
        case "shutdown": self = .poweroff
        case "reboot": self = .reboot
        default: return nil
        }
    }
}
