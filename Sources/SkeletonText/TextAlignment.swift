/// Where each line of a label sits across its box. `natural` follows the layout's direction:
/// left in a left-to-right layout, right in a right-to-left one.
public enum TextAlignment: String, Sendable {
    case left, center, right, natural
}
