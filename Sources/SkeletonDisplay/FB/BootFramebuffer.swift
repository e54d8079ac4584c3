import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The firmware's framebuffer (efifb, vesafb) as a previous start drove it, brought up first
/// thing at boot from the daemon's boot record: under UEFI that framebuffer is there from the
/// kernel's start and the native driver comes seconds later, so this is the earliest the
/// start layout's frame can be shown. The device is checked against the record (its driver's
/// id and its size), the console quieted, and the cached frame read into RAM, then converted
/// into the page on screen: a damaged entry leaves the screen untouched.
///
/// `FramebufferDisplay.open` adopts the mapping and the quieted console (`take`); whatever is
/// not adopted goes back as it was (`release`: the console redraws its text).
public final class BootFramebuffer {
    public let path: String
    private var mapped: MappedFramebuffer?
    private var console: ConsoleQuieter?
    /// CLOCK_MONOTONIC seconds when the frame was on screen.
    public let shownAt: Double

    private init(path: String, mapped: MappedFramebuffer, console: ConsoleQuieter, shownAt: Double) {
        self.path = path
        self.mapped = mapped
        self.console = console
        self.shownAt = shownAt
    }

    deinit { release() }

    /// Opens `path`, checks that its driver is `id` and its mode `size`, reads the frame with
    /// `readFrame` and shows it; nil, with nothing changed on screen, when anything differs or
    /// the frame cannot be read whole.
    public static func show(path: String, id: String, size: Size, console: ConsoleQuieter = ConsoleQuieter(),
                            readFrame: (Canvas) -> Bool) -> BootFramebuffer? {
        guard let mapped = try? MappedFramebuffer.open(path) else { return nil }
        guard mapped.info.id == id, mapped.info.width == size.width, mapped.info.height == size.height else {
            mapped.close()
            return nil
        }
        let frame = PixelBuffer(size: size)
        guard readFrame(frame.canvas) else {
            mapped.close()
            return nil
        }
        console.quiet()
        mapped.format.convert(PixelRect(x: 0, y: 0, width: size.width, height: size.height), from: frame.canvas,
                              into: mapped.pageOnScreen, pitch: mapped.info.lineLength)
        return BootFramebuffer(path: path, mapped: mapped, console: console, shownAt: SystemCalls.monotonicSeconds())
    }

    /// The mapping and the quieted console, for the display that opens `path` (once).
    func take(for path: String) -> (MappedFramebuffer, ConsoleQuieter)? {
        guard path == self.path, let mapped, let console else { return nil }
        self.mapped = nil
        self.console = nil
        return (mapped, console)
    }

    /// The quieted console, for a display that takes the screen from this framebuffer (a DRM
    /// card opened instead): it gives the console back when it lets the screen go.
    public func detachConsole() -> ConsoleQuieter? {
        defer { console = nil }
        return console
    }

    /// Gives the screen back to the console and closes the device, unless a display took them.
    public func release() {
        console?.restore()
        console = nil
        mapped?.close()
        mapped = nil
    }
}
