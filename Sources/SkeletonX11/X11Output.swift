import CXCB
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// The skeleton's window as an output: the RAM shadow frames are drawn into, put into the window
/// with xcb_put_image (damage only, in requests the server takes), one frame in flight (the
/// next waits for the round trip after it), and what the server exposes put again from the shadow.
final class X11Output: DisplayOutput {
    let name = "x11"
    let size: Size
    private let pixels: PixelBuffer
    private let window: X11Window
    private let connection: X11Connection
    /// Rows of a rectangle narrower than the window, made contiguous for a request.
    private var scratch: [UInt32] = []
    private(set) var framesPresented = 0

    init(size: Size, window: X11Window, connection: X11Connection) {
        self.size = size
        self.window = window
        self.connection = connection
        pixels = PixelBuffer(size: size)
    }

    var shadow: Canvas { pixels.canvas }

    /// The round trip says when the server has taken a frame, not when the screen shows it:
    /// frames follow the daemon's clock (`display.maxFps`), and wait for it.
    var pacesFrames: Bool { false }

    var canPresent: Bool { window.mapped && window.size == size && !connection.syncPending }

    func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        guard canPresent else { return false }
        guard !damage.isEmpty else { return true }
        for rect in damage { put(rect) }
        connection.sendSync()
        try connection.flush()
        framesPresented += 1
        return true
    }

    /// The server exposed `rect` of the window (mapped, or uncovered): put again, once a frame was.
    func expose(_ rect: PixelRect) {
        guard framesPresented > 0 else { return }
        put(rect)
    }

    /// xcb_put_image(3) of the shadow's `rect`, as many requests as the server's limit needs.
    private func put(_ rect: PixelRect) {
        guard let c = connection.connection else { return }
        let r = rect.intersection(shadow.bounds)
        guard !r.isEmpty else { return }
        let rowBytes = r.width * 4
        let rowsPerRequest = max(1, min(r.height, (connection.maximumRequestBytes - 32) / rowBytes))
        var y = r.y
        while y < r.maxY {
            let rows = min(rowsPerRequest, r.maxY - y)
            let count = rows * r.width
            func send(_ base: UnsafePointer<UInt32>) {
                base.withMemoryRebound(to: UInt8.self, capacity: count * 4) { bytes in
                    _ = xcb_put_image(c, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), window.id, window.gcontext, UInt16(r.width), UInt16(rows),
                                      Int16(r.x), Int16(y), 0, connection.depth, UInt32(count * 4), bytes)
                }
            }
            if r.width == shadow.width && shadow.stride == shadow.width {
                send(UnsafePointer(shadow.row(y)))
            } else {
                if scratch.count < count { scratch = [UInt32](repeating: 0, count: count) }
                scratch.withUnsafeMutableBufferPointer { out in
                    for row in 0..<rows {
                        let source = shadow.row(y + row) + r.x
                        (out.baseAddress! + row * r.width).update(from: source, count: r.width)
                    }
                    send(UnsafePointer(out.baseAddress!))
                }
            }
            y += rows
        }
    }

    var status: OutputStatus {
        var s = OutputStatus()
        s.mode = "\(size.width)x\(size.height)"
        s.device = connection.displayName
        s.compositor = connection.serverName
        s.buffers = 1
        s.flipsPending = connection.syncPending ? 1 : 0
        return s
    }
}
