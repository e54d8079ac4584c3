/// A BMP's `BI_BITFIELDS` masks: where red, green and blue lie in a 32-bit pixel, each a run of
/// 1 to 8 bits, widened to 8 bits by scaling (a 5-bit 31 is 255).
struct ColourMasks: Equatable {
    /// X8R8G8B8, the layout of `BI_RGB` 32-bit pixels.
    static let standard = ColourMasks(red: 0x00FF_0000, green: 0x0000_FF00, blue: 0x0000_00FF)!

    private let red: Channel, green: Channel, blue: Channel

    /// nil when a mask is empty, wider than 8 bits or not one run of bits.
    init?(red: UInt32, green: UInt32, blue: UInt32) {
        guard let r = Channel(red), let g = Channel(green), let b = Channel(blue) else { return nil }
        (self.red, self.green, self.blue) = (r, g, b)
    }

    /// The pixel as opaque ARGB8888.
    @inline(__always)
    func argb(_ pixel: UInt32) -> UInt32 {
        0xFF00_0000 | red.value(pixel) << 16 | green.value(pixel) << 8 | blue.value(pixel)
    }

    private struct Channel: Equatable {
        let mask: UInt32, shift: UInt32, maximum: UInt32

        init?(_ mask: UInt32) {
            guard mask != 0 else { return nil }
            let shift = UInt32(mask.trailingZeroBitCount)
            let run = mask >> shift
            guard run & (run + 1) == 0, run <= 0xFF else { return nil }
            (self.mask, self.shift, self.maximum) = (mask, shift, run)
        }

        @inline(__always)
        func value(_ pixel: UInt32) -> UInt32 { (((pixel & mask) >> shift) * 255 + maximum / 2) / maximum }
    }
}
