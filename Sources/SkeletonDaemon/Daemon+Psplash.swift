import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol

/// psplash's commands, carried out as psplash would: the message and the progress go to the
/// layout's nodes of those roles, QUIT hides (psplash exits; this daemon stays for a later show).
extension Daemon {
    func executePsplash(_ command: PsplashCommand) {
        switch command {
        case .progress(let value):
            setRoleContent(progress: .fraction(Double(value) / 100))
        case .message(let text):
            setRoleContent(message: text)
        case .quit:
            logger.info("psplash: QUIT")
            _ = performHide(transition: session.lookInForce?.presentation.transition ?? .default, retain: false, now: clock.now)
        }
    }
}
