import CSkeletonWayland
import SkeletonLayout
import SkeletonRender

/// The skeleton's fullscreen xdg-shell toplevel: its surface, what the compositor configured
/// (the logical size, acknowledged), the scale it prefers, and the frame callback that paces
/// presents (one frame in flight at a time).
final class WaylandWindow {
    private(set) var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractional: OpaquePointer?
    private var frameCallback: OpaquePointer?
    private let globals: WaylandGlobals
    /// The size the compositor asked for in its last configure (0 x 0: the client chooses).
    private var proposed = Size(width: 0, height: 0)
    /// The logical size acknowledged last; nil before the first configure.
    private(set) var configured: Size?
    private var preferred120: Int?
    /// The monitors the surface is on (wl_surface.enter).
    private var entered: Set<OpaquePointer> = []
    /// The size used when the compositor leaves it to the client and says no monitor's size.
    let fallbackSize: Size
    private let title: String
    /// The window before `map` made it anew, shown until the new one has drawn.
    private var retired: RetiredWindowObjects?
    /// Every commit damages the whole surface (`stayOnTop`): wlroots (cage) repaints only what its
    /// windows damage, into whichever swap-chain buffer it renders next, and a buffer it has just
    /// made (a screenshot client holds one) starts black; a window over the app keeps the whole
    /// screen right at every frame.
    var damagesWhole = false
    /// The compositor asked the window to close (xdg_toplevel.close).
    private(set) var closeRequested = false
    /// Whether the last configure said the window is the active one (xdg_toplevel's `activated`).
    private var proposedActivated = false
    private var activated = false
    /// Another window mapped over this one: a configure took the activation away (cage activates
    /// the newest window), or the surface left its last monitor (weston's kiosk-shell moves the
    /// window it covers to a hidden layer, and activates nothing when no seat was there at first).
    private var deactivated = false

    /// The window's objects made (`makeObjects`); the compositor answers with a configure.
    init(globals: WaylandGlobals, title: String, fallbackSize: Size) {
        self.globals = globals
        self.fallbackSize = fallbackSize
        self.title = title
        makeObjects()
    }

    /// wl_compositor.create_surface, xdg_wm_base.get_xdg_surface, get_toplevel, set_fullscreen on
    /// no particular monitor, then an empty commit: the compositor answers with a configure.
    private func makeObjects() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        surface = wl_compositor_create_surface(globals.compositor)
        wl_surface_add_listener(surface, &Self.surfaceListener, me)
        if let manager = globals.fractionalScale, globals.viewporter != nil {
            fractional = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractional, &Self.fractionalListener, me)
        }
        if let viewporter = globals.viewporter { viewport = wp_viewporter_get_viewport(viewporter, surface) }
        xdgSurface = xdg_wm_base_get_xdg_surface(globals.wmBase, surface)
        xdg_surface_add_listener(xdgSurface, &Self.xdgSurfaceListener, me)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        xdg_toplevel_add_listener(toplevel, &Self.toplevelListener, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, "skeletond")
        xdg_toplevel_set_fullscreen(toplevel, nil)
        wl_surface_commit(surface)
    }

    deinit { destroy() }

    /// Destroys the window's objects, children first: the compositor unmaps it.
    func destroy() {
        retired?.destroy()
        retired = nil
        takeObjects().destroy()
    }

    /// The window's objects, taken from it (their events no longer reach it).
    private func takeObjects() -> RetiredWindowObjects {
        defer { frameCallback = nil; fractional = nil; viewport = nil; toplevel = nil; xdgSurface = nil; surface = nil }
        return RetiredWindowObjects(surface: surface, xdgSurface: xdgSurface, toplevel: toplevel, viewport: viewport,
                                    fractional: fractional, frameCallback: frameCallback)
    }

    /// The scale to draw at: the fractional one where offered, else the largest integer scale of
    /// the monitors the surface is on (of all of them before it is on any).
    var scale: SurfaceScale {
        if let preferred120 { return SurfaceScale(fractional120: preferred120) }
        let monitors = globals.outputs.values.filter { m in m.proxy.map { entered.contains($0) } ?? false }
        let pool = monitors.isEmpty ? Array(globals.outputs.values) : monitors
        return SurfaceScale(integer: pool.map(\.scale).max() ?? 1)
    }

    /// The monitor the window is on, by the compositor's name for it.
    var monitorName: String? {
        globals.outputs.values.first { m in m.proxy.map { entered.contains($0) } ?? false }?.name
    }

    /// The buffer size the window needs now; nil before the compositor configured it.
    var bufferSize: Size? { configured.map { scale.bufferSize(for: $0) } }

    /// Attaches no buffer: the compositor unmaps the window; `map` shows it again.
    func unmap() {
        guard let surface else { return }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
        configured = nil
    }

    /// After `unmap`, or to come back over a window mapped since: the window made anew (a new
    /// surface and toplevel), which the compositor maps as its newest window once it has drawn;
    /// the old one stays until then. Not the same surface committed again: weston configures no
    /// toplevel mapped again after a null buffer (weston issue 893).
    func map() {
        retired?.destroy()
        retired = takeObjects()
        configured = nil
        proposed = Size(width: 0, height: 0)
        entered = []
        activated = false
        proposedActivated = false
        deactivated = false
        makeObjects()
    }

    var framePending: Bool { frameCallback != nil }

    /// Attaches `buffer`, damages `damage` (buffer pixels), asks for a frame callback and commits.
    func commit(_ buffer: ShmBuffer, damage: [PixelRect], scale: SurfaceScale) {
        guard let surface, let logical = configured else { return }
        wl_surface_attach(surface, buffer.proxy, 0, 0)
        if let viewport {
            if scale.fractional120 != nil { wp_viewport_set_destination(viewport, Int32(logical.width), Int32(logical.height)) }
            else { wp_viewport_set_destination(viewport, -1, -1) }
        }
        wl_surface_set_buffer_scale(surface, Int32(scale.integer))
        if damagesWhole {
            wl_surface_damage_buffer(surface, 0, 0, Int32.max, Int32.max)
        } else {
            for r in damage { wl_surface_damage_buffer(surface, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height)) }
        }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, &Self.frameListener, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
        retired?.destroy()
        retired = nil
    }

    private func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
    }

    private func left(_ output: OpaquePointer) {
        guard entered.remove(output) != nil, entered.isEmpty else { return }
        deactivated = true
    }

    /// Whether another window took the activation, or hid this one, since the last call.
    func takeDeactivation() -> Bool {
        defer { deactivated = false }
        return deactivated
    }

    private func configure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        if activated && !proposedActivated { deactivated = true }
        activated = proposedActivated
        // 0 x 0: the client chooses. Some compositors (cage) size a fullscreen window only once
        // it has drawn: its monitor's size then, so that the first frame is the right one.
        configured = proposed.width > 0 && proposed.height > 0 ? proposed : (configured ?? globals.firstMonitorSize ?? fallbackSize)
    }

    fileprivate static func containsActivated(_ states: UnsafeMutablePointer<wl_array>) -> Bool {
        let count = states.pointee.size / MemoryLayout<UInt32>.size
        guard count > 0, let data = states.pointee.data else { return false }
        let values = data.bindMemory(to: UInt32.self, capacity: count)
        return (0..<count).contains { values[$0] == XDG_TOPLEVEL_STATE_ACTIVATED.rawValue }
    }

    private static func window(_ data: UnsafeMutableRawPointer?) -> WaylandWindow? {
        data.map { Unmanaged<WaylandWindow>.fromOpaque($0).takeUnretainedValue() }
    }

    nonisolated(unsafe) private static var surfaceListener = wl_surface_listener(
        enter: { data, _, output in if let output { window(data)?.entered.insert(output) } },
        leave: { data, _, output in if let output { window(data)?.left(output) } })

    nonisolated(unsafe) private static var xdgSurfaceListener = xdg_surface_listener(
        configure: { data, _, serial in window(data)?.configure(serial: serial) })

    nonisolated(unsafe) private static var toplevelListener = xdg_toplevel_listener(
        configure: { data, _, width, height, states in
            window(data)?.proposed = Size(width: Int(max(0, width)), height: Int(max(0, height)))
            window(data)?.proposedActivated = states.map(WaylandWindow.containsActivated) ?? false
        },
        close: { data, _ in window(data)?.closeRequested = true },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in })

    nonisolated(unsafe) private static var fractionalListener = wp_fractional_scale_v1_listener(
        preferred_scale: { data, _, scale in window(data)?.preferred120 = scale > 0 ? Int(scale) : nil })

    nonisolated(unsafe) private static var frameListener = wl_callback_listener(
        done: { data, _, _ in window(data)?.frameDone() })
}
