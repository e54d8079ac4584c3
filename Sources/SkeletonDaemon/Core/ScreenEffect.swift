import SkeletonProtocol
import SkeletonSettings

/// What a transition of `Screen` asks the daemon to carry out: the display, the hidden mark, the
/// questions on screen, the journal. The daemon carries them out in order and decides nothing.
enum ScreenEffect: Equatable, Sendable {
    /// Take the display (back) to draw the skeleton.
    case reacquireDisplay
    /// Let the display go once the skeleton has gone; with the picture left on it (`hide --retain`).
    case releaseDisplay(retainingPicture: Bool)
    /// Let the display go and close it: the console shows.
    case closeDisplay
    /// `deactivate`: the display is let go with the frame left on it, and stays so, whatever
    /// shows, until `reactivate`.
    case deactivateDisplay
    /// `reactivate` (or the way down): shows and updates may take the display back again.
    case reactivateDisplay
    /// The way down: a display an app still holds is taken back the moment it lets go.
    case takeBackWhenFree
    /// The way down: argv[0] gets its '@', so that systemd-shutdown's last killing spree spares
    /// the daemon and its frame stays until the power is off.
    case spareFromShutdownKill
    /// A hide's fade ends on the console: its picture is made ready beneath.
    case fadeToConsole
    /// Write (true) or remove (false) the hidden mark's file, before the command is answered.
    case writeHiddenMark(Bool)
    /// A Plymouth request waiting for its answer is answered.
    case replyPlymouth(PlymouthTicket, PlymouthReply)
    /// What was typed goes to the question's asker, and is wiped.
    case sendAnswer(QuestionQueue.Question)
    /// What was typed is wiped.
    case clearEntry
    /// No question or keystroke watch is open: the keyboards are let go.
    case stopReadingKeys
    /// A question is left to the console's own prompt (true), or the last of those is gone.
    case consoleForQuestions(Bool)
    /// The skeleton shows again: the password agent's open questions may be put on it.
    case offerAgentQuestions
    /// The app has the screen: what waited for the real root is written now.
    case lastChanceForStartFrames
    /// A look came on screen, or an update changed it (its resolved tree is logged under SKELETON_DEBUG).
    case appeared(SkeletonLook)
    case log(LogLevel, String)
}
