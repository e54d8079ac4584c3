import CSkeletonWayland
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// One XRGB8888 `wl_buffer` in its own shared memory (memfd, mapped here, a `wl_shm_pool`
/// for the compositor). It is busy from its commit until the compositor releases it, and it
/// remembers what changed on screen since it was last written (`stale`), so a present copies
/// the frame's damage and that, never the whole buffer again.
final class ShmBuffer {
    let canvas: Canvas
    private(set) var proxy: OpaquePointer?
    private var memory: UnsafeMutableRawPointer?
    private let length: Int
    private(set) var busy = false
    /// What this buffer misses of the picture on screen; a new buffer misses all of it.
    private var stale: [PixelRect]

    /// More rectangles than this are kept as their bounding box.
    static let staleLimit = 16

    /// memfd_create(2), mmap(2), wl_shm.create_pool and wl_shm_pool.create_buffer; XRGB8888, or
    /// with `transparent` ARGB8888 left all zero: a buffer that shows what is below it.
    init(shm: OpaquePointer, size: Size, transparent: Bool = false) throws(DisplayError) {
        let stride = size.width * 4
        length = stride * size.height
        let fd: FileDescriptor
        do { fd = try SystemCalls.sharedMemory(name: "skeletond-wl-buffer", size: length) } catch {
            throw DisplayError("wayland: a \(size) buffer: \(error)")
        }
        defer { fd.close() }
        do { memory = try SystemCalls.mapShared(fd, length: length) } catch {
            throw DisplayError("wayland: mapping a \(size) buffer: \(error)")
        }
        canvas = Canvas(base: memory!.assumingMemoryBound(to: UInt32.self), width: size.width, height: size.height, stride: size.width)
        stale = [canvas.bounds]
        let pool = wl_shm_create_pool(shm, fd.rawValue, Int32(length))
        proxy = wl_shm_pool_create_buffer(pool, 0, Int32(size.width), Int32(size.height), Int32(stride),
                                         transparent ? WL_SHM_FORMAT_ARGB8888.rawValue : WL_SHM_FORMAT_XRGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        wl_buffer_add_listener(proxy, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { destroy() }

    /// wl_buffer.destroy and munmap(2), once.
    func destroy() {
        if let proxy { wl_buffer_destroy(proxy) }
        proxy = nil
        if let memory { SystemCalls.unmap(memory, length: length) }
        memory = nil
    }

    /// Brings the buffer up to `shadow` where the frame changed (`damage`) and where it was
    /// behind; it is busy until the compositor releases it.
    func write(from shadow: Canvas, damage: [PixelRect]) {
        for rect in stale + damage { copyOpaque(rect, from: shadow) }
        stale = []
        busy = true
    }

    /// Copies `rect` with the unused byte of every pixel set: XRGB8888 leaves it undefined, and
    /// some compositors' screenshots (weston's pixman renderer among them) read it as alpha.
    private func copyOpaque(_ rect: PixelRect, from shadow: Canvas) {
        let r = rect.intersection(canvas.bounds).intersection(shadow.bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            let source = shadow.row(y) + r.x
            let target = canvas.row(y) + r.x
            for x in 0..<r.width { target[x] = source[x] | 0xFF00_0000 }
        }
    }

    /// Committed again as it is (to a window made anew): busy until the compositor releases it.
    func markBusy() { busy = true }

    /// Another buffer showed `damage`: this one is behind there.
    func fellBehind(_ damage: [PixelRect]) {
        stale += damage
        if stale.count > Self.staleLimit {
            stale = [stale.dropFirst().reduce(stale[0]) { $0.union($1) }]
        }
    }

    private func released() { busy = false }

    nonisolated(unsafe) private static var listener = wl_buffer_listener(release: { data, _ in
        guard let data else { return }
        Unmanaged<ShmBuffer>.fromOpaque(data).takeUnretainedValue().released()
    })
}
