import SkeletonLayout

/// Where the firmware's boot logo goes on an output, so that it stays where the firmware drew it.
///
/// The rule, from Linux (drivers/video/fbdev/efifb.c, `efifb_show_boot_graphics` and its
/// sanity check) and Plymouth (the two-step plugin's `view_set_bgrt_background`):
///
/// - The firmware drew the logo at `xoffset`, `yoffset` on its own mode. Linux redraws it there
///   only when that mode is still the screen's, and only when `xoffset` centres it horizontally
///   (x86 firmware always centres it across; its `yoffset` varies by vendor); `status` is not
///   trusted for anything else. Plymouth assumes the firmware drew at the panel's native mode
///   and, on another mode, keeps the logo's offset from the centre across, and its offset from
///   the line 38.2% down the screen (Microsoft's rule for the logo's centre) vertically.
/// - Here: the firmware's mode is `firmware` when the caller knows it (the panel's native mode,
///   as Plymouth assumes); else the output's own size when `xoffset` centres the logo on it as
///   Linux checks it (`(width - logoWidth) / 2`, rounded down: a 193-pixel logo on 1024 is at
///   415), else `2 * xoffset + width` wide with the output's aspect ratio. On that very size the logo is placed at `xoffset`,
///   `yoffset`, unscaled, as efifb does. On another size the firmware's screen is taken as
///   fitted to the output with its aspect kept (factor `s = min(outW / fwW, outH / fwH)`, what a
///   panel's scaler does with a mode other than its own): the logo is `s` times its
///   size, its centre `s` times its firmware offset from the centre across, and `s` times its
///   offset from the 38.2% line down (Plymouth's anchors); rounded to pixels and, as Plymouth
///   does, kept from starting above or left of the screen. When the caller gives the firmware's
///   mode and `xoffset` does not centre the logo on it, the offsets are not for that mode and
///   Plymouth's default is used: unscaled, centred across, its centre on the 38.2% line.
/// - A logo the firmware marks as rotated (ACPI 6.2 orientation bits in `status`) is refused:
///   it would have to be turned to the panel, which the caller knows and this module does not.
public struct BGRTPlacement: Sendable, Equatable {
    public let x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// The placement of a `logo`-sized picture given at `offset` by firmware that drew on a
    /// `firmware`-sized screen (nil: inferred as above), on an `output`-sized one.
    public init(logo: (width: Int, height: Int), offset: (x: Int, y: Int), output: (width: Int, height: Int),
                firmware: (width: Int, height: Int)? = nil) {
        if firmware == nil && output.width >= logo.width && (output.width - logo.width) / 2 == offset.x {
            self.init(x: offset.x, y: offset.y, width: logo.width, height: logo.height)
            return
        }
        let firmwareWidth = firmware?.width ?? max(1, 2 * offset.x + logo.width)
        let firmwareHeight = firmware?.height ?? max(1, ContentMode.rounded(firmwareWidth * output.height, over: output.width))
        if firmware != nil && (firmwareWidth - logo.width) / 2 != offset.x {
            let y = Int((Double(output.height) * Self.goldenLine).rounded()) - logo.height / 2
            self.init(x: max(0, (output.width - logo.width) / 2), y: max(0, y), width: logo.width, height: logo.height)
            return
        }
        if firmwareWidth == output.width && firmwareHeight == output.height {
            self.init(x: offset.x, y: offset.y, width: logo.width, height: logo.height)
            return
        }
        let scale = min(Double(output.width) / Double(firmwareWidth), Double(output.height) / Double(firmwareHeight))
        let width = max(1, Int((Double(logo.width) * scale).rounded()))
        let height = max(1, Int((Double(logo.height) * scale).rounded()))
        // The logo's centre, relative to the centre across and to the 38.2% line down.
        let across = Double(offset.x) + Double(logo.width) / 2 - Double(firmwareWidth) / 2
        let down = Double(offset.y) + Double(logo.height) / 2 - Double(firmwareHeight) * Self.goldenLine
        let x = Double(output.width) / 2 + across * scale - Double(width) / 2
        let y = Double(output.height) * Self.goldenLine + down * scale - Double(height) / 2
        self.init(x: max(0, Int(x.rounded())), y: max(0, Int(y.rounded())), width: width, height: height)
    }

    /// Where Microsoft's boot screen rules put the logo's centre, as a fraction of the height.
    static let goldenLine = 0.382
}
