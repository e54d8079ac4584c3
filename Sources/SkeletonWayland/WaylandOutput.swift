import CSkeletonWayland
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// The skeleton's window at one buffer size: the RAM shadow frames are drawn into, and up to
/// three wl_shm buffers it is copied into, damage only. A present waits for the previous frame's
/// callback (the compositor's pace) and for a buffer the compositor has released. A new size
/// (a configure, a scale) makes a new output.
final class WaylandOutput: DisplayOutput {
    let name: String
    let size: Size
    let scale: SurfaceScale
    private let pixels: PixelBuffer
    private let window: WaylandWindow
    private let shm: OpaquePointer
    private let connection: WaylandConnection
    private var buffers: [ShmBuffer] = []
    /// The buffer committed last: whole, it must be the frame (a compositor may repaint any
    /// part of it at any time, not only the damage).
    private(set) var committed: ShmBuffer?
    private(set) var framesPresented = 0
    /// Why the last buffer could not be made, for `status`.
    private var bufferProblem: String?

    static let maxBuffers = 3

    init(name: String, size: Size, scale: SurfaceScale, window: WaylandWindow, shm: OpaquePointer, connection: WaylandConnection) {
        self.name = name
        self.size = size
        self.scale = scale
        self.window = window
        self.shm = shm
        self.connection = connection
        pixels = PixelBuffer(size: size)
    }

    deinit { destroyBuffers() }

    func destroyBuffers() {
        for b in buffers { b.destroy() }
        buffers = []
        committed = nil
    }

    var shadow: Canvas { pixels.canvas }

    var pacesFrames: Bool { true }

    /// The window is still this size, no frame is in flight, and a buffer is or can be free.
    var canPresent: Bool {
        guard window.surface != nil, !window.framePending, window.bufferSize == size else { return false }
        return buffers.contains { !$0.busy } || buffers.count < Self.maxBuffers
    }

    func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        guard canPresent else { return false }
        guard !damage.isEmpty else { return true }
        let buffer: ShmBuffer
        if let free = buffers.first(where: { !$0.busy }) {
            buffer = free
        } else {
            do { buffer = try ShmBuffer(shm: shm, size: size) } catch {
                bufferProblem = error.message
                throw error
            }
            bufferProblem = nil
            buffers.append(buffer)
        }
        buffer.write(from: shadow, damage: damage)
        for other in buffers where other !== buffer { other.fellBehind(damage) }
        window.commit(buffer, damage: damage, scale: scale)
        committed = buffer
        try connection.flush()
        framesPresented += 1
        return true
    }

    /// The last frame committed again, whole: the window was mapped again without a buffer.
    func commitAgain() {
        guard let committed, window.surface != nil, !window.framePending else { return }
        committed.markBusy()
        window.commit(committed, damage: [PixelRect(x: 0, y: 0, width: size.width, height: size.height)], scale: scale)
        try? connection.flush()
    }

    var status: OutputStatus {
        var s = OutputStatus()
        s.mode = "\(size.width)x\(size.height)"
        s.connector = window.monitorName
        s.device = connection.socketName
        s.compositor = connection.compositorName
        s.buffers = buffers.count
        s.flipsPending = window.framePending ? 1 : 0
        s.scale = scale.description
        s.problem = bufferProblem
        return s
    }
}
