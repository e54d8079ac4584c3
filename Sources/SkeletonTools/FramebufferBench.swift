import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// An fbdev output of one pixel layout over memory in RAM, for `skeletond bench --format`: the
/// animated frame drawn into the shadow and its damage converted into the framebuffer, as the
/// daemon does on /dev/fbN; and a memcpy of one frame of that layout, the reference.
final class FramebufferBench {
    let format: FramebufferFormat
    private let display: FramebufferDisplay
    private let renderer: FrameRenderer
    private let memory: UnsafeMutableRawPointer
    private let copySource: UnsafeMutableRawPointer
    private let frameBytes: Int

    init(format: FramebufferFormat, size: Size, layout: Layout, requestedSize: Size?) {
        self.format = format
        let pitch = size.width * format.bytesPerPixel
        frameBytes = pitch * size.height
        memory = UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64)
        copySource = UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64)
        copySource.initializeMemory(as: UInt8.self, repeating: 0x5A, count: frameBytes)
        let info = FramebufferInfo(id: "bench", width: size.width, height: size.height, virtualWidth: size.width, virtualHeight: size.height,
                                   bitsPerPixel: format.bytesPerPixel * 8, red: format.red, green: format.green, blue: format.blue,
                                   lineLength: pitch, memoryLength: frameBytes)
        display = FramebufferDisplay(path: "bench", fd: nil, memory: memory, info: info, format: format, console: nil)
        renderer = FrameRenderer(layout: layout, outputSize: requestedSize)
        renderer.renderFull(at: 0, into: display.shadow)
        _ = try? display.present(damage: [display.shadow.bounds])
    }

    deinit {
        display.close()
        memory.deallocate()
        copySource.deallocate()
    }

    /// Draws the frame at `time` into the shadow; its damage, for `present`.
    func render(at time: Double) -> [PixelRect] { renderer.render(at: time, into: display.shadow) }

    /// Converts `damage` into the framebuffer.
    func present(_ damage: [PixelRect]) { _ = try? display.present(damage: damage) }

    func copyWholeFrame() { memory.copyMemory(from: copySource, byteCount: frameBytes) }
}
