/// A canvas a frame is drawn straight into instead of the shadow (a back buffer, written only),
/// and what it lacks besides the frame's own changes (a back buffer two frames old: the last
/// frame's damage). Those rectangles are drawn again too.
public struct Mirror: Sendable {
    public let canvas: Canvas
    public let lacks: [PixelRect]

    public init(canvas: Canvas, lacks: [PixelRect]) {
        self.canvas = canvas
        self.lacks = lacks
    }
}
