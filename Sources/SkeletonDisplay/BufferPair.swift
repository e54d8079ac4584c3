import SkeletonRender

/// The bookkeeping of two buffers shown in turn: which one is on screen, whether each holds
/// the frame it was last given, and what the one off screen needs to catch up with the
/// shadow. That one holds the frame before last, so a present copies this frame's damage and
/// the last frame's, unless the renderer drew both straight into it (the back buffer as a
/// `Mirror` that `lacks` the last frame's damage).
public struct BufferPair: Sendable {
    /// The buffer on screen, 0 or 1.
    public private(set) var front = 0
    private var holdsItsFrame = [false, false]
    private var lastDamage: [PixelRect] = []

    public init() {}

    /// The buffer off screen, the one a present fills.
    public var back: Int { 1 - front }

    /// What the back buffer lacks besides this frame's changes (the last frame's damage), when
    /// damage alone brings it up to date, so that the renderer may draw straight into it. nil
    /// while it is new or stale: a present then copies it whole.
    public var backLacks: [PixelRect]? { holdsItsFrame[back] ? lastDamage : nil }

    /// The buffer on screen holds the frame it was last given: a frame without damage changes
    /// nothing there.
    public var frontHoldsItsFrame: Bool { holdsItsFrame[front] }

    /// What a present copies from the shadow into the back buffer for a frame with `damage`;
    /// `mirrored`: the renderer drew this frame's damage and `backLacks` into it already.
    public func rectsToCopy(damage: [PixelRect], mirrored: Bool, bounds: PixelRect) -> [PixelRect] {
        guard holdsItsFrame[back] else { return [bounds] }
        return mirrored ? [] : PixelRect.coalesce(damage + lastDamage)
    }

    /// The back buffer holds the frame with `damage` now (its flip may still be pending).
    public mutating func backFilled(damage: [PixelRect]) {
        holdsItsFrame[back] = true
        lastDamage = damage
    }

    /// The buffer on screen was written instead (the first frame, straight into the buffer the
    /// mode was set on, or the only buffer there is); `whole`: it holds the whole frame.
    public mutating func frontFilled(damage: [PixelRect], whole: Bool) {
        if whole { holdsItsFrame[front] = true }
        lastDamage = damage
    }

    /// The buffer on screen was written in place with `damage`: the back buffer lacks that too,
    /// besides what it lacked. Past `lacksLimit` rectangles it is taken as stale instead (the
    /// next flip copies it whole) rather than carrying a growing list.
    public mutating func frontUpdated(damage: [PixelRect]) {
        lastDamage = PixelRect.coalesce(lastDamage + damage)
        if lastDamage.count > Self.lacksLimit { holdsItsFrame[back] = false }
    }

    public static let lacksLimit = 16

    /// The back buffer is on screen now.
    public mutating func flipped() { front = back }

    /// Neither buffer can be trusted (a mode set, a failed flip, a frame written past the
    /// shadow): the next presents copy whole frames.
    public mutating func invalidate() { holdsItsFrame = [false, false] }
}
