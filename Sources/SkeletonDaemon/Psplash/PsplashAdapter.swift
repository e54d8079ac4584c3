import SkeletonLayout
import SkeletonProtocol

/// psplash's FIFO as control commands: MSG and PROGRESS update the nodes of the message and
/// progress roles (kept for later layouts, as psplash keeps them), QUIT hides (psplash exits;
/// the daemon stays for a later show).
enum PsplashAdapter {
    static func command(for line: PsplashCommand) -> Command {
        switch line {
        case .progress(let value): return .update(UpdateRequest(progress: .percent(value), keep: true))
        case .message(let text): return .update(UpdateRequest(message: text, keep: true))
        case .quit: return .hide(HideRequest())
        }
    }
}
