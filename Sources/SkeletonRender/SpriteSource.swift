import SkeletonLayout

/// Makes the pixels of pictures and texts (SkeletonContent's `ContentSprites` does, with libpng,
/// FreeType and HarfBuzz; the daemon's `BackgroundSprites` off its loop); a frame renderer asks
/// once per item and keeps the answer.
public protocol SpriteSource: AnyObject {
    /// The pixels for `item` on an output of `outputSize`, or why they cannot be made; nil while
    /// they are being made. Either way short of pixels, the renderer draws the item's fallback
    /// skeleton.
    func sprite(for item: SpriteItem, outputSize: Size) -> Result<Sprite, SpriteError>?
}

/// Why a sprite could not be made: the node's JSON path and the reason (which names the file).
public struct SpriteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let nodePath: String
    public let reason: String

    public init(nodePath: String, reason: String) {
        self.nodePath = nodePath
        self.reason = reason
    }

    public var description: String { "\(nodePath): \(reason) (the node shows as a skeleton)" }
}
