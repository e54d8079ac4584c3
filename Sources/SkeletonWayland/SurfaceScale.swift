import SkeletonLayout

/// How a window of a logical size (the compositor's configure) maps onto buffer pixels: a
/// fractional scale (wp_fractional_scale_v1, in 120ths) through a viewport, else an integer
/// buffer scale (wl_output.scale), else one to one.
public struct SurfaceScale: Sendable, Equatable, CustomStringConvertible {
    /// The fractional scale in 120ths, when the compositor sent one and a viewport can apply it.
    public var fractional120: Int?
    /// wl_surface.set_buffer_scale's value: 1 whenever the scale is fractional.
    public var integer: Int

    public init(fractional120: Int? = nil, integer: Int = 1) {
        self.fractional120 = fractional120
        self.integer = fractional120 == nil ? max(1, integer) : 1
    }

    /// The buffer's size in pixels for a window of `logical` size: rounded half away from zero
    /// for a fractional scale, as the protocol asks.
    public func bufferSize(for logical: Size) -> Size {
        if let f = fractional120 {
            return Size(width: max(1, (logical.width * f + 60) / 120), height: max(1, (logical.height * f + 60) / 120))
        }
        return Size(width: logical.width * integer, height: logical.height * integer)
    }

    public var description: String {
        if let f = fractional120 {
            let hundredths = (f * 100 + 60) / 120
            return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        }
        return "\(integer)"
    }
}
