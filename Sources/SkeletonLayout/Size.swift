/// A size in whole pixels, as of a canvas or a display mode.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "WxH" (for example "1920x1080"); nil unless both are positive integers up to 16384.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              (1...16384).contains(w), (1...16384).contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(width)x\(height)" }
}
