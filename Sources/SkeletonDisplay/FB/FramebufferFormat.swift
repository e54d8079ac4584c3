import SkeletonRender
import SkeletonSystem

/// A framebuffer's pixel layout, from the bitfields the kernel reports (never assumed from the
/// depth), and the conversion of the renderer's XRGB8888 rows into it. The layouts that occur
/// get a loop of their own; any other one of 16, 24 or 32 bits goes through the bitfields.
public struct FramebufferFormat: Equatable, Sendable, CustomStringConvertible {
    public enum Layout: Equatable, Sendable {
        /// 32 bits, red at 16, green at 8, blue at 0: the renderer's own, copied as is.
        case xrgb8888
        /// 32 bits, red at 0, green at 8, blue at 16.
        case xbgr8888
        /// 24 bits packed, red at 16 (bytes blue, green, red): what vesafb gives at 24 bpp.
        case rgb888
        /// 24 bits packed, red at 0 (bytes red, green, blue).
        case bgr888
        /// 16 bits, red 5 at 11, green 6 at 5, blue 5 at 0.
        case rgb565
        /// Anything else of 16, 24 or 32 bits: per pixel, through the bitfields.
        case bitfields
    }

    public let bytesPerPixel: Int
    public let red: FramebufferInfo.Bitfield
    public let green: FramebufferInfo.Bitfield
    public let blue: FramebufferInfo.Bitfield
    public let layout: Layout

    /// nil, with the reason, for what cannot be drawn: a palette or a depth other than 16, 24
    /// or 32 bits, or channels outside the pixel.
    public static func of(_ info: FramebufferInfo) -> Result<FramebufferFormat, DisplayError> {
        let bits = info.bitsPerPixel
        guard [16, 24, 32].contains(bits) else {
            return .failure(DisplayError("\(bits) bits per pixel is not supported (16, 24 or 32 bits are)"))
        }
        for (name, field) in [("red", info.red), ("green", info.green), ("blue", info.blue)] {
            guard (1...16).contains(field.length), field.offset >= 0, field.offset + field.length <= bits else {
                return .failure(DisplayError("the \(name) channel (\(field.length) bits at \(field.offset)) does not fit a \(bits)-bit pixel"))
            }
        }
        return .success(FramebufferFormat(bitsPerPixel: bits, red: info.red, green: info.green, blue: info.blue))
    }

    public init(bitsPerPixel: Int, red: FramebufferInfo.Bitfield, green: FramebufferInfo.Bitfield, blue: FramebufferInfo.Bitfield) {
        bytesPerPixel = bitsPerPixel / 8
        self.red = red
        self.green = green
        self.blue = blue
        let fields = [red.offset, red.length, green.offset, green.length, blue.offset, blue.length]
        switch (bitsPerPixel, fields) {
        case (32, [16, 8, 8, 8, 0, 8]): layout = .xrgb8888
        case (32, [0, 8, 8, 8, 16, 8]): layout = .xbgr8888
        case (24, [16, 8, 8, 8, 0, 8]): layout = .rgb888
        case (24, [0, 8, 8, 8, 16, 8]): layout = .bgr888
        case (16, [11, 5, 5, 6, 0, 5]): layout = .rgb565
        default: layout = .bitfields
        }
    }

    public static let xrgb8888 = FramebufferFormat(bitsPerPixel: 32, red: .init(offset: 16, length: 8),
                                                   green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))
    public static let rgb888 = FramebufferFormat(bitsPerPixel: 24, red: .init(offset: 16, length: 8),
                                                 green: .init(offset: 8, length: 8), blue: .init(offset: 0, length: 8))
    public static let rgb565 = FramebufferFormat(bitsPerPixel: 16, red: .init(offset: 11, length: 5),
                                                 green: .init(offset: 5, length: 6), blue: .init(offset: 0, length: 5))

    public var description: String {
        switch layout {
        case .xrgb8888: return "XRGB8888"
        case .xbgr8888: return "XBGR8888"
        case .rgb888: return "RGB888"
        case .bgr888: return "BGR888"
        case .rgb565: return "RGB565"
        case .bitfields:
            return "\(bytesPerPixel * 8) bpp, red \(red.length)@\(red.offset), green \(green.length)@\(green.offset), blue \(blue.length)@\(blue.offset)"
        }
    }

    /// Converts `rect` of `canvas` (XRGB8888) into the framebuffer at `base`, whose rows are
    /// `pitch` bytes apart. `rect` must lie inside both.
    public func convert(_ rect: PixelRect, from canvas: Canvas, into base: UnsafeMutableRawPointer, pitch: Int) {
        guard !rect.isEmpty else { return }
        for y in rect.y..<rect.maxY {
            let source = canvas.row(y) + rect.x
            let destination = base + y * pitch + rect.x * bytesPerPixel
            convertRow(source, into: destination, count: rect.width)
        }
    }

    /// Converts `count` XRGB8888 pixels into this layout at `destination`.
    @inline(__always)
    public func convertRow(_ source: UnsafePointer<UInt32>, into destination: UnsafeMutableRawPointer, count: Int) {
        switch layout {
        case .xrgb8888:
            destination.copyMemory(from: source, byteCount: count * 4)
        case .xbgr8888:
            let out = destination.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count {
                let p = source[i]
                out[i] = (p & 0x0000_FF00) | (p & 0xFF) << 16 | (p >> 16) & 0xFF
            }
        case .rgb888:
            Self.packRGB888(source, into: destination, count: count, swapRedAndBlue: false)
        case .bgr888:
            Self.packRGB888(source, into: destination, count: count, swapRedAndBlue: true)
        case .rgb565:
            let out = destination.assumingMemoryBound(to: UInt16.self)
            for i in 0..<count {
                let p = source[i]
                out[i] = UInt16(truncatingIfNeeded: (p >> 8) & 0xF800 | (p >> 5) & 0x07E0 | (p >> 3) & 0x001F)
            }
        case .bitfields:
            let out = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count {
                let p = source[i]
                let value = Self.place(UInt32((p >> 16) & 0xFF), red) | Self.place(UInt32((p >> 8) & 0xFF), green)
                    | Self.place(UInt32(p & 0xFF), blue)
                for byte in 0..<bytesPerPixel {
                    out[bytesPerPixel * i + byte] = UInt8(truncatingIfNeeded: value >> UInt32(8 * byte))
                }
            }
        }
    }

    /// Packs XRGB8888 pixels into 3 bytes each (blue, green, red in memory; red first when
    /// swapped): four pixels at a time as three 32-bit words, the rest byte by byte.
    private static func packRGB888(_ source: UnsafePointer<UInt32>, into destination: UnsafeMutableRawPointer, count: Int,
                                   swapRedAndBlue: Bool) {
        let swapMask: UInt32 = swapRedAndBlue ? 0xFF_FFFF : 0
        var i = 0
        var out = destination
        while i + 4 <= count {
            let p0 = swapped(source[i], swapMask), p1 = swapped(source[i + 1], swapMask)
            let p2 = swapped(source[i + 2], swapMask), p3 = swapped(source[i + 3], swapMask)
            out.storeBytes(of: ((p0 & 0xFF_FFFF) | p1 << 24).littleEndian, toByteOffset: 0, as: UInt32.self)
            out.storeBytes(of: ((p1 >> 8) & 0xFFFF | p2 << 16).littleEndian, toByteOffset: 4, as: UInt32.self)
            out.storeBytes(of: ((p2 >> 16) & 0xFF | p3 << 8).littleEndian, toByteOffset: 8, as: UInt32.self)
            out += 12
            i += 4
        }
        while i < count {
            let p = swapped(source[i], swapMask)
            out.storeBytes(of: UInt8(truncatingIfNeeded: p), toByteOffset: 0, as: UInt8.self)
            out.storeBytes(of: UInt8(truncatingIfNeeded: p >> 8), toByteOffset: 1, as: UInt8.self)
            out.storeBytes(of: UInt8(truncatingIfNeeded: p >> 16), toByteOffset: 2, as: UInt8.self)
            out += 3
            i += 1
        }
    }

    /// `p` with red and blue exchanged where `mask` is all ones (0: as it is), without a branch.
    @inline(__always)
    private static func swapped(_ p: UInt32, _ mask: UInt32) -> UInt32 {
        let exchanged = (p & 0x00FF00) | (p & 0xFF) << 16 | (p >> 16) & 0xFF
        return (exchanged & mask) | (p & ~mask)
    }

    /// An 8-bit channel value scaled to the field's width (repeating its top bits below, so
    /// that 255 is all ones) and moved to its offset.
    @inline(__always)
    private static func place(_ value: UInt32, _ field: FramebufferInfo.Bitfield) -> UInt32 {
        let scaled: UInt32
        if field.length <= 8 {
            scaled = value >> UInt32(8 - field.length)
        } else {
            let extra = UInt32(field.length - 8)
            scaled = value << extra | value >> (8 - extra)
        }
        return scaled << UInt32(field.offset)
    }
}
