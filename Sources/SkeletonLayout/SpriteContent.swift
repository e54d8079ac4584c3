/// What a sprite shows.
public enum SpriteContent: Sendable, Hashable {
    case picture(PictureSpec)
    case text(TextRun)

    /// The firmware's logo goes where the firmware put it, whatever the node's frame.
    public var isFirmwareLogo: Bool {
        if case .picture(let p) = self, p.source == .bgrt { return true }
        return false
    }
}
