/// The states of the skeleton on screen, as `status` reports them.
public enum SessionState: String, Sendable {
    case idle, pending, showing, hiding
}
