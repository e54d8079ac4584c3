/// Maps design pixels onto an output of a given size by the canvas's scale rule.
public struct ViewportTransform: Sendable, Hashable {
    public var scaleX: Double
    public var scaleY: Double
    public var offsetX: Double
    public var offsetY: Double

    public init(scaleX: Double, scaleY: Double, offsetX: Double, offsetY: Double) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    public init(canvas: Size, scale: ScaleMode, output: Size) {
        let sx = Double(output.width) / Double(canvas.width)
        let sy = Double(output.height) / Double(canvas.height)
        switch scale {
        case .stretch:
            self.init(scaleX: sx, scaleY: sy, offsetX: 0, offsetY: 0)
            return
        case .fit, .fill, .none:
            let s = scale == .fit ? min(sx, sy) : scale == .fill ? max(sx, sy) : 1
            let w = Double(canvas.width) * s, h = Double(canvas.height) * s
            self.init(scaleX: s, scaleY: s, offsetX: (Double(output.width) - w) / 2, offsetY: (Double(output.height) - h) / 2)
        }
    }

    public func map(_ r: Rect) -> Rect {
        Rect(x: r.x * scaleX + offsetX, y: r.y * scaleY + offsetY, width: r.width * scaleX, height: r.height * scaleY)
    }

    /// Lengths that must stay round (corner radii) scale with the smaller factor.
    public var lengthScale: Double { min(scaleX, scaleY) }
}
