/// Where a picture comes from.
public enum PictureSource: Hashable, Sendable {
    /// A PNG file at an absolute path.
    case file(String)
    /// The firmware's boot logo: the BMP of the ACPI BGRT table (`image` in the loader's BGRT
    /// directory, `/sys/firmware/acpi/bgrt` by default).
    case bgrt
}
