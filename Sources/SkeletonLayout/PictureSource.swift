/// Where a picture comes from.
public enum PictureSource: Sendable, Hashable, CustomStringConvertible {
    /// A PNG file, its path made absolute against the layout's directory when the layout was read.
    case file(String)
    /// The firmware's boot logo (ACPI BGRT), at the place the firmware gives.
    case bgrt

    public var description: String {
        switch self {
        case .file(let path): return path
        case .bgrt: return "bgrt"
        }
    }
}
