import SkeletonLayout

/// The clockwise turn of the picture on an output's scanout buffer: a panel mounted on its
/// side shows a portrait layout turned by 90 or 270 degrees. The layout is laid out, and the
/// frames drawn, at the turned (logical) size; presents turn the damage into the buffer.
public enum Rotation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case upright = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// 0, 90, 180 or 270; nil for anything else.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    /// A DRM connector's "panel orientation" property (0 normal, 1 upside down, 2 left side
    /// up, 3 right side up), as Plymouth reads it.
    public init?(panelOrientation: Int) {
        switch panelOrientation {
        case 0: self = .upright
        case 1: self = .upsideDown
        case 2: self = .clockwise90
        case 3: self = .clockwise270
        default: return nil
        }
    }

    public var degrees: Int { rawValue }
    public var description: String { "\(rawValue)°" }

    /// Whether width and height trade places.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The size of the picture drawn for a buffer of `physical` size (and the reverse).
    public func turned(_ size: Size) -> Size { swapsAxes ? Size(width: size.height, height: size.width) : size }

    /// Where `rect` of a picture of `logical` size lands on the buffer.
    public func physicalRect(_ rect: PixelRect, logical: Size) -> PixelRect {
        switch self {
        case .upright: return rect
        case .clockwise90: return PixelRect(x: logical.height - rect.y - rect.height, y: rect.x, width: rect.height, height: rect.width)
        case .upsideDown:
            return PixelRect(x: logical.width - rect.x - rect.width, y: logical.height - rect.y - rect.height, width: rect.width, height: rect.height)
        case .clockwise270: return PixelRect(x: rect.y, y: logical.width - rect.x - rect.width, width: rect.height, height: rect.width)
        }
    }
}
