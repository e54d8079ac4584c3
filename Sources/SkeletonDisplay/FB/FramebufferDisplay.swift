import SkeletonProtocol
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The fbdev output (`/dev/fbN`): for boards and kernels with no DRM driver, and the firmware's
/// framebuffer (vesafb, efifb) early in boot. Frames are drawn into a RAM shadow in XRGB8888
/// and only the damage is converted into the mapped framebuffer, in whatever layout the kernel
/// reports (`FramebufferFormat`), row by row at its `line_length`. Where the virtual screen is
/// twice the visible one and the driver pans, two pages are shown in turn (FBIOPAN_DISPLAY),
/// with the same bookkeeping as DRM's two buffers; otherwise the page on screen is written.
///
/// Lifecycle: open (mode read, memory mapped, nothing drawn), first present (the console
/// quieted, the whole frame written), steady state (damage), release (the console given back,
/// or with retain the frame left), close (unmapped, in reverse order).
public final class FramebufferDisplay: Display, DisplayOutput {
    public let path: String
    public let info: FramebufferInfo
    public let format: FramebufferFormat
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }
    public let backendName = "fbdev"
    /// The picture's size: the mode's, turned by `rotation`.
    public let size: Size
    public let rotation: Rotation
    private let shadowBuffer: PixelBuffer
    /// For a turned picture: the damage turned into the mode's orientation, then converted.
    private let turnedBuffer: PixelBuffer?
    private let fd: FileDescriptor?
    private var memory: UnsafeMutableRawPointer?
    private var console: ConsoleQuieter?
    /// Two pages shown in turn, when the virtual screen and the driver allow it.
    private var pages: BufferPair?
    /// The first row of the page on screen before we panned (put back at release).
    private let originalYOffset: Int
    private var wroteWholeFrame = false
    private var released = false
    public private(set) var framesPresented = 0
    /// The boot path's frame was on screen when this display opened (`BootFramebuffer`).
    public private(set) var adoptedBootFrame = false
    /// Nothing keeps a framebuffer from showing frames (no master to lose).
    public var problem: String? { nil }
    /// Why the text console could not be quieted, if it could not (for `status`): the frames
    /// still show, the console may draw over them.
    public private(set) var consoleNote: String?

    /// Opens `path`, reads its mode and maps its memory; nothing is drawn yet. With `boot`, the
    /// framebuffer the boot path put the start layout's frame on, its mapping and quieted console
    /// are taken over instead (`adoptedBootFrame`) when it is this device, upright.
    public static func open(path: String, rotation: Rotation = .upright, console: ConsoleQuieter? = ConsoleQuieter(),
                            boot: BootFramebuffer? = nil) throws(DisplayError) -> FramebufferDisplay {
        if rotation == .upright, let (mapped, bootConsole) = boot?.take(for: path) {
            let display = FramebufferDisplay(path: path, fd: mapped.fd, memory: mapped.memory, info: mapped.info, format: mapped.format,
                                             rotation: rotation, console: bootConsole)
            display.adoptedBootFrame = true
            return display
        }
        let mapped = try MappedFramebuffer.open(path)
        return FramebufferDisplay(path: path, fd: mapped.fd, memory: mapped.memory, info: mapped.info, format: mapped.format,
                                  rotation: rotation, console: console)
    }

    /// Over memory that stands for a framebuffer (tests, the benchmark): no device, no console.
    package init(path: String, fd: FileDescriptor?, memory: UnsafeMutableRawPointer, info: FramebufferInfo, format: FramebufferFormat,
                 rotation: Rotation = .upright, console: ConsoleQuieter?) {
        self.path = path
        self.fd = fd
        self.memory = memory
        self.info = info
        self.format = format
        self.console = console
        let physical = Size(width: info.width, height: info.height)
        self.rotation = rotation
        self.size = rotation.turned(physical)
        self.shadowBuffer = PixelBuffer(size: size)
        self.turnedBuffer = rotation == .upright ? nil : PixelBuffer(size: physical)
        self.originalYOffset = info.yOffset
        let fitsTwoPages = info.virtualHeight >= 2 * info.height && info.memoryLength >= info.lineLength * 2 * info.height
        if fitsTwoPages && info.panStep > 0 && info.height % info.panStep == 0 { pages = BufferPair() }
    }

    deinit { close() }

    public var outputs: [any DisplayOutput] { [self] }
    public var shadow: Canvas { shadowBuffer.canvas }
    public var canPresent: Bool { !released && memory != nil }
    public var eventDescriptor: FileDescriptor? { nil }
    public var doubleBuffered: Bool { pages != nil }

    public func handleEvents() throws(DisplayError) {}
    public func tick(now: Double) -> Double? { nil }

    /// The first row of page `index` in the virtual screen.
    private func pageRow(_ index: Int) -> Int { index * info.height }

    public func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        guard !released, let memory else { return false }
        // A framebuffer unregistered under us (its driver unbound, or a DRM driver taking over the
        // firmware's) answers no ioctl any more, while its mapping still takes writes that never
        // show: the device went away.
        if let fd {
            do { _ = try SystemCalls.framebufferInfo(fd) } catch {
                throw DisplayError("\(path): the framebuffer went away (\(error))", deviceGone: true)
            }
        }
        if framesPresented == 0, let console { consoleNote = console.quiet() }
        let bounds = shadow.bounds
        if var pair = pages, let fd {
            let back = pair.back
            let rects = pair.rectsToCopy(damage: damage, mirrored: false, bounds: bounds)
            write(rects, into: memory + pageRow(back) * info.lineLength)
            do {
                try SystemCalls.panFramebuffer(fd, y: pageRow(back))
            } catch {
                // This driver does not pan after all: one page from now on, written whole next.
                pages = nil
                wroteWholeFrame = false
                return try present(damage: damage, mirrored: mirrored)
            }
            pair.backFilled(damage: damage)
            pair.flipped()
            pages = pair
        } else {
            let rects = wroteWholeFrame ? PixelRect.coalesce(damage) : [bounds]
            write(rects, into: memory + originalYOffset * info.lineLength)
            wroteWholeFrame = true
        }
        framesPresented += 1
        return true
    }

    private func write(_ rects: [PixelRect], into page: UnsafeMutableRawPointer) {
        let bounds = shadow.bounds
        for rect in rects {
            let clipped = rect.intersection(bounds)
            if let turnedBuffer {
                turnedBuffer.canvas.copy(clipped, from: shadow, turnedBy: rotation)
                format.convert(rotation.physicalRect(clipped, logical: size), from: turnedBuffer.canvas, into: page, pitch: info.lineLength)
            } else {
                format.convert(clipped, from: shadow, into: page, pitch: info.lineLength)
            }
        }
    }

    public var status: OutputStatus {
        var s = OutputStatus()
        s.device = path
        s.driver = info.id
        s.mode = "\(info.width)x\(info.height)"
        s.format = format.description
        s.pitch = Int(info.lineLength)
        s.pages = doubleBuffered ? 2 : 1
        s.rotation = rotation.degrees
        s.connector = path.split(separator: "/").last.map(String.init) ?? path
        s.buffers = doubleBuffered ? 2 : 1
        s.console = consoleNote
        return s
    }

    public func release(retainingPicture: Bool) {
        guard !released else { return }
        released = true
        guard !retainingPicture else { return }
        if let fd, pages != nil { try? SystemCalls.panFramebuffer(fd, y: originalYOffset) }
        console?.restore()
    }

    public func reacquire() throws(DisplayError) {
        guard memory != nil else { throw DisplayError("\(path): closed") }
        released = false
        wroteWholeFrame = false
        pages?.invalidate()
        if let console { consoleNote = console.quiet() }
    }

    /// Hands the quieted console to the display that takes over from this one, so that the
    /// text console does not flash up between the two.
    public func detachConsole() -> ConsoleQuieter? {
        defer { console = nil }
        return console
    }

    public func close() {
        guard let memory else { return }
        if !released { release(retainingPicture: false) }
        if let fd {
            SystemCalls.unmap(memory, length: info.memoryLength)
            fd.close()
        }
        self.memory = nil
    }
}
