/// An sRGB colour with 8-bit channels and straight (not premultiplied) alpha.
public struct Color: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `0xRRGGBB`, opaque.
    public init(rgb: UInt32) {
        self.init(red: UInt8((rgb >> 16) & 0xFF), green: UInt8((rgb >> 8) & 0xFF), blue: UInt8(rgb & 0xFF))
    }

    public static let white = Color(rgb: 0xFFFFFF)
    public static let black = Color(rgb: 0x000000)

    public var isOpaque: Bool { alpha == 255 }

    /// The pixel value in a XRGB8888 buffer (the X byte is zero).
    public var xrgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var hex: String {
        func two(_ v: UInt8) -> String {
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(v >> 4)], digits[Int(v & 15)]])
        }
        return "#" + two(red) + two(green) + two(blue) + (isOpaque ? "" : two(alpha))
    }

    public var description: String { hex }

    /// SkeletonView's `isLight`: perceived brightness (299 R + 587 G + 114 B) / 1000 of at least one half.
    public var isLight: Bool {
        (299 * Double(red) + 587 * Double(green) + 114 * Double(blue)) / 1000 / 255 >= 0.5
    }

    /// The gradient's middle colour and the pulse's far colour: a light colour with its HSB
    /// brightness times 0.94, a dark one times 1.35 (at most 1); hue, saturation, alpha kept.
    public var complement: Color {
        let brightness = Double(max(red, green, blue)) / 255
        guard brightness > 0 else { return self }
        let target = isLight ? brightness * 0.94 : min(brightness * 1.35, 1)
        let factor = target / brightness
        func scale(_ v: UInt8) -> UInt8 { UInt8(min(255, (Double(v) * factor).rounded())) }
        return Color(red: scale(red), green: scale(green), blue: scale(blue), alpha: alpha)
    }

    /// Linear interpolation per channel, `t` in 0...1.
    public func mixed(with other: Color, _ t: Double) -> Color {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded())
        }
        return Color(red: mix(red, other.red), green: mix(green, other.green),
                     blue: mix(blue, other.blue), alpha: mix(alpha, other.alpha))
    }
}
