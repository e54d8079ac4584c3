import SkeletonSystem

/// Why a label cannot be drawn: the font file it names, and what is wrong with it or with the
/// style asked of it.
public struct TextError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The file could not be read (missing, unreadable, a directory, too large).
        case unreadable(FileReadError)
        /// FreeType cannot open the file as a font (`FT_New_Memory_Face`'s error code).
        case notAFont(freeTypeError: Int32)
        /// A weight outside 100...900.
        case noSuchWeight(Int)
        /// A size that is not a positive number of pixels up to `TextEngine.maximumSize`.
        case badSize(Double)
        /// A line height that is not a positive number of pixels up to `TextEngine.maximumLineHeight`.
        case badLineHeight(Double)
        /// A line limit below one.
        case badMaxLines(Int)
    }

    public var fontPath: String
    public var reason: Reason

    public init(fontPath: String, reason: Reason) {
        self.fontPath = fontPath
        self.reason = reason
    }

    public var description: String {
        let why: String
        switch reason {
        case .unreadable(let error): why = error.description
        case .notAFont(let code): why = "it is not a font FreeType can read (FreeType error \(code))"
        case .noSuchWeight(let weight): why = "no such weight \(weight) (weights are 100 to 900)"
        case .badSize(let size): why = "size \(size) is not a number of pixels from above 0 to \(TextEngine.maximumSize)"
        case .badLineHeight(let height): why = "line height \(height) is not a number of pixels from above 0 to \(TextEngine.maximumLineHeight)"
        case .badMaxLines(let lines): why = "lines \(lines) is fewer than one"
        }
        return "font \(fontPath): \(why)"
    }
}
