import CFreeType

/// The FreeType library instance every face of a `TextEngine` belongs to (`FT_Init_FreeType`,
/// `FT_Done_FreeType`); faces hold it, so it outlives them.
final class FontLibrary {
    let handle: FT_Library

    init() {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        // Only an allocation failure makes this fail.
        precondition(error == 0 && library != nil, "FT_Init_FreeType failed with error \(error)")
        handle = library!
    }

    deinit { FT_Done_FreeType(handle) }
}
