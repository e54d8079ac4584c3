import SkeletonLayout

/// Turns a presentation into each shape's paint at a given time, and says which part of a
/// shape can differ between two times (the union of the sliding band's two positions).
public struct ShapeAnimator: Sendable {
    public let presentation: Presentation
    public let direction: SlideDirection
    public let timeline: AnimationTimeline
    /// The whole output, the frame of reference of a screen-space sweep.
    public let screen: Rect

    public init(presentation: Presentation, direction: SlideDirection, outputSize: Size) {
        self.presentation = presentation
        self.direction = direction
        self.timeline = AnimationTimeline(style: presentation.style, animation: presentation.animation)
        self.screen = Rect(x: 0, y: 0, width: Double(outputSize.width), height: Double(outputSize.height))
    }

    public var moves: Bool { presentation.moves }

    /// Eased progress of one shape at `time` (its delay taken into account).
    public func progress(of shape: SkeletonShape, at time: Double) -> Double {
        moves ? timeline.progress(at: time - shape.delay) : 0
    }

    /// The paint at a progress already worked out (`progress(of:at:)`). `stops` are the shape's
    /// colours already converted (`stops(for:)`); a renderer keeps them.
    /// `far`: a pulse's far colour, the tint's complement (a renderer works it out once).
    public func paint(for shape: SkeletonShape, progress p: Double, table: GradientTable? = nil,
                      stops: PaintStops? = nil, far: Color? = nil) -> ShapePaint {
        let stops = stops ?? self.stops(for: shape)
        switch (presentation.style, moves) {
        case (.solid, false):
            return ShapePaint(stops: stops)
        case (.solid, true):
            return .solid(pulseColor(of: shape, far: far, progress: p))
        case (.gradient, false):
            let r = shape.rect
            return ShapePaint(stops: stops, a: 0, b: 1 / r.height, c: -r.y / r.height, table: table)
        case (.gradient, true):
            return slidingPaint(shape, progress: p, stops: stops, table: table)
        }
    }

    /// A pulsing shape's colour at eased progress `p`: its tint mixed with `far`, the tint's
    /// complement (worked out here when not given).
    public func pulseColor(of shape: SkeletonShape, far: Color? = nil, progress p: Double) -> Color {
        shape.tint.mixed(with: far ?? shape.tint.complement, p)
    }

    /// The colours a shape is painted in under this presentation: its tint or its gradient.
    public func stops(for shape: SkeletonShape) -> PaintStops {
        PaintStops(presentation.style == .solid ? [shape.tint] : shape.gradient)
    }

    /// The sliding gradient: parameter = s + 1 - 2p, where s runs 0...1 along the direction.
    private func slidingPaint(_ shape: SkeletonShape, progress p: Double, stops: PaintStops, table: GradientTable?) -> ShapePaint {
        let f = presentation.animation.space == .screen ? screen : shape.rect
        let shift = 1 - 2 * p
        let (a, b, c): (Double, Double, Double)
        switch direction {
        case .leftRight: (a, b, c) = (1 / f.width, 0, -f.x / f.width + shift)
        case .rightLeft: (a, b, c) = (-1 / f.width, 0, 1 + f.x / f.width + shift)
        case .topBottom: (a, b, c) = (0, 1 / f.height, -f.y / f.height + shift)
        case .bottomTop: (a, b, c) = (0, -1 / f.height, 1 + f.y / f.height + shift)
        case .topLeftBottomRight:
            (a, b, c) = (0.5 / f.width, 0.5 / f.height, -(f.x / f.width + f.y / f.height) / 2 + shift)
        case .bottomRightTopLeft:
            (a, b, c) = (-0.5 / f.width, -0.5 / f.height, 1 + (f.x / f.width + f.y / f.height) / 2 + shift)
        }
        return ShapePaint(stops: stops, a: a, b: b, c: c, table: table)
    }

    /// The part of `shape` whose pixels may differ between progress `p0` and progress `p1`;
    /// nil for a pulse whose colour is the same at both (between two near colours, such as a
    /// light tint and its complement, a pulse keeps each colour for several frames).
    /// With the shape's gradient `table`, the band leaves out the ends of the gradient that
    /// are the end colours already (where a light gradient changes by a few levels, a few
    /// percent of the band at each end).
    public func changedArea(of shape: SkeletonShape, fromProgress p0: Double, toProgress p1: Double,
                            table: GradientTable? = nil, far: Color? = nil) -> Rect? {
        guard moves, p0 != p1 else { return nil }
        let bounds = shape.rect.intersection(shape.clip)
        if presentation.style == .solid {
            let far = far ?? shape.tint.complement
            return pulseColor(of: shape, far: far, progress: p0) == pulseColor(of: shape, far: far, progress: p1) ? nil : bounds
        }
        let f = presentation.animation.space == .screen ? screen : shape.rect
        // At progress p, a point at s along the sweep reads the gradient at s + 1 - 2p, so the
        // part that is not one end colour is s in (2p - 1 + below, 2p - 1 + above); map the
        // union of its two positions (and all between) back to pixels.
        let below = table?.flatBelow ?? 0, above = table?.flatAbove ?? 1
        let s0 = min(p0, p1) * 2 - 1 + below, s1 = max(p0, p1) * 2 - 1 + above
        guard s1 > s0 else { return nil }
        var band: Rect
        switch direction {
        case .leftRight: band = Rect(x: f.x + s0 * f.width, y: bounds.y, width: (s1 - s0) * f.width, height: bounds.height)
        case .rightLeft:
            band = Rect(x: f.x + (1 - s1) * f.width, y: bounds.y, width: (s1 - s0) * f.width, height: bounds.height)
        case .topBottom: band = Rect(x: bounds.x, y: f.y + s0 * f.height, width: bounds.width, height: (s1 - s0) * f.height)
        case .bottomTop:
            band = Rect(x: bounds.x, y: f.y + (1 - s1) * f.height, width: bounds.width, height: (s1 - s0) * f.height)
        case .topLeftBottomRight, .bottomRightTopLeft: band = bounds
        }
        // Edge pixels read the gradient at their centres, up to half a pixel outside the shape:
        // the band is cut to the whole pixels the shape touches, not to its exact bounds.
        let changed = band.intersection(Rect(PixelRect(enclosing: bounds)))
        return changed.isEmpty ? nil : changed
    }
}
