extension Double {
    /// The value with exactly `decimals` digits after the point, rounded (no Foundation
    /// formatter needed): `0.5.fixed(3)` is "0.500".
    public func fixed(_ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(self) * scale).rounded()
        let whole = Int(scaled / scale)
        var text = String(whole)
        if decimals > 0 {
            let fraction = String(Int(scaled) - whole * Int(scale))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return self < 0 && scaled > 0 ? "-" + text : text
    }
}
