/// What a prompt shows on screen: the asker's message, the typed characters as bullets (or as
/// text where they may be shown), a caret, and a notice when the entry is full. It holds no
/// typed character of a password, only their number.
public struct PromptPicture: Sendable, Equatable {
    public var message: String
    public var bullets: Int
    /// The typed text, shown instead of bullets for a question or `Echo=yes`.
    public var text: String?
    /// Said under the entry (the entry is full, no keyboard, a wrong answer before).
    public var notice: String?

    public init(message: String, bullets: Int = 0, text: String? = nil, notice: String? = nil) {
        self.message = message
        self.bullets = bullets
        self.text = text
        self.notice = notice
    }

    /// Only the entry (bullets, text, notice) differs from `other`: the panel alone is redrawn.
    public func differsOnlyInEntry(from other: PromptPicture) -> Bool { message == other.message }
}
