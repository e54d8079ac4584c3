extension Color {
    /// The named colours: SkeletonView's 20 flat colours and darkClouds.
    public static let named: [String: Color] = [
        "greenSea": Color(rgb: 0x16A085), "turquoise": Color(rgb: 0x1ABC9C),
        "emerald": Color(rgb: 0x2ECC71), "peterRiver": Color(rgb: 0x3498DB),
        "amethyst": Color(rgb: 0x9B59B6), "wetAsphalt": Color(rgb: 0x34495E),
        "nephritis": Color(rgb: 0x27AE60), "belizeHole": Color(rgb: 0x2980B9),
        "wisteria": Color(rgb: 0x8E44AD), "midnightBlue": Color(rgb: 0x2C3E50),
        "sunFlower": Color(rgb: 0xF1C40F), "carrot": Color(rgb: 0xE67E22),
        "alizarin": Color(rgb: 0xE74C3C), "clouds": Color(rgb: 0xECF0F1),
        "concrete": Color(rgb: 0x95A5A6), "flatOrange": Color(rgb: 0xF39C12),
        "pumpkin": Color(rgb: 0xD35400), "pomegranate": Color(rgb: 0xC0392B),
        "silver": Color(rgb: 0xBDC3C7), "asbestos": Color(rgb: 0x7F8C8D),
        "darkClouds": Color(rgb: 0x1C2325),
    ]

    /// Parses a colour name, `#RRGGBB`, `#RRGGBBAA`, `rgb(r, g, b)` or `rgba(r, g, b, a)`
    /// (channels 0-255, alpha 0-1). The error text says what was expected.
    public static func parse(_ text: String) -> Result<Color, ColorSyntaxError> {
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("#") { return parseHex(trimmed) }
        if trimmed.hasPrefix("rgb") { return parseFunction(trimmed) }
        if let color = named[trimmed] { return .success(color) }
        return .failure(ColorSyntaxError(
            "unknown colour \"\(text)\": expected one of the flat colour names (clouds, peterRiver, ...), #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)"))
    }

    private static func parseHex(_ text: String) -> Result<Color, ColorSyntaxError> {
        let digits = Array(text.utf8.dropFirst())
        guard digits.count == 6 || digits.count == 8 else {
            return .failure(ColorSyntaxError("bad colour \"\(text)\": expected #RRGGBB or #RRGGBBAA"))
        }
        var channels: [UInt8] = []
        var i = 0
        while i < digits.count {
            guard let high = hexDigit(digits[i]), let low = hexDigit(digits[i + 1]) else {
                return .failure(ColorSyntaxError("bad colour \"\(text)\": \"\(text)\" has a character that is not a hex digit"))
            }
            channels.append(high << 4 | low)
            i += 2
        }
        return .success(Color(red: channels[0], green: channels[1], blue: channels[2],
                              alpha: channels.count == 4 ? channels[3] : 255))
    }

    private static func parseFunction(_ text: String) -> Result<Color, ColorSyntaxError> {
        let hasAlpha = text.hasPrefix("rgba(")
        let prefixLength = hasAlpha ? 5 : 4
        guard text.hasPrefix(hasAlpha ? "rgba(" : "rgb("), text.hasSuffix(")") else {
            return .failure(ColorSyntaxError("bad colour \"\(text)\": expected rgb(r, g, b) or rgba(r, g, b, a)"))
        }
        let inner = text.dropFirst(prefixLength).dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        let expected = hasAlpha ? 4 : 3
        guard parts.count == expected else {
            return .failure(ColorSyntaxError(
                "bad colour \"\(text)\": \(hasAlpha ? "rgba" : "rgb") takes \(expected) values, found \(parts.count)"))
        }
        var channels: [UInt8] = []
        for part in parts.prefix(3) {
            guard let value = Int(part), (0...255).contains(value) else {
                return .failure(ColorSyntaxError("bad colour \"\(text)\": channel \"\(part)\" is not an integer from 0 to 255"))
            }
            channels.append(UInt8(value))
        }
        var alpha: UInt8 = 255
        if hasAlpha {
            guard let value = Double(parts[3]), value >= 0, value <= 1 else {
                return .failure(ColorSyntaxError("bad colour \"\(text)\": alpha \"\(parts[3])\" is not a number from 0 to 1"))
            }
            alpha = UInt8((value * 255).rounded())
        }
        return .success(Color(red: channels[0], green: channels[1], blue: channels[2], alpha: alpha))
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Why a colour string was rejected.
public struct ColorSyntaxError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
