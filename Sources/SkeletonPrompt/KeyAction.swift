/// What a key press means at a prompt. A typed character's UTF-8 is lent only for the call
/// that receives it, so that it never lands in memory nobody wipes.
public enum KeyAction {
    case character(UnsafeRawBufferPointer)
    case backspace
    /// Enter: the answer is given.
    case enter
    /// Escape: the prompt is left to the asker's own fallback (the console).
    case escape
}
