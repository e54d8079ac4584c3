/// What the daemon does when the display server it is a window of (a Wayland compositor, an X
/// server) goes away or closes the window (`display.wayland.whenGone`, `display.x11.whenGone`).
public enum WhenDisplayServerGone: String, Sendable, CaseIterable {
    /// Exit with status 0: the display server's unit (or the session) decides what comes next.
    case exit
    /// Go on with the `auto` backend: the card the display server held is free again, and the
    /// skeleton comes back on it rather than the console.
    case auto
}
