import CSkeletonWayland
import SkeletonLayout

/// The compositor's globals the output binds (wl_registry): what draws (wl_compositor, wl_shm),
/// what makes a fullscreen window (xdg_wm_base), what scales (wl_output, wp_viewporter,
/// wp_fractional_scale_manager_v1).
final class WaylandGlobals {
    private(set) var registry: OpaquePointer?
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScale: OpaquePointer?
    /// The compositor's monitors by registry name.
    private(set) var outputs: [UInt32: WaylandMonitor] = [:]

    /// wl_surface.damage_buffer came with version 4.
    static let compositorVersion: UInt32 = 4

    /// wl_display.get_registry; the globals arrive with the next roundtrip.
    init(display: OpaquePointer) {
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The first monitor's logical size (by the order the compositor announced them): where a
    /// fullscreen window goes when the compositor has not sized it yet.
    var firstMonitorSize: Size? { outputs.keys.sorted().lazy.compactMap { self.outputs[$0]?.logicalSize }.first }

    /// What a fullscreen window needs and the compositor did not offer, if anything.
    var missing: String? {
        if compositor == nil { return "wl_compositor version \(Self.compositorVersion) or later" }
        if shm == nil { return "wl_shm" }
        if wmBase == nil { return "xdg_wm_base (xdg-shell)" }
        return nil
    }

    /// Destroys every proxy bound here.
    func destroy() {
        for monitor in outputs.values { monitor.destroy() }
        outputs = [:]
        if let fractionalScale { wp_fractional_scale_manager_v1_destroy(fractionalScale) }
        if let viewporter { wp_viewporter_destroy(viewporter) }
        if let wmBase { xdg_wm_base_destroy(wmBase) }
        if let shm { wl_shm_destroy(shm) }
        if let compositor { wl_compositor_destroy(compositor) }
        if let registry { wl_registry_destroy(registry) }
        fractionalScale = nil; viewporter = nil; wmBase = nil; shm = nil; compositor = nil; registry = nil
    }

    private func announced(name: UInt32, interface: String, version: UInt32) {
        guard let registry else { return }
        switch interface {
        case "wl_compositor" where version >= Self.compositorVersion:
            compositor = skeleton_bind_compositor(registry, name, Self.compositorVersion)
        case "wl_shm":
            shm = skeleton_bind_shm(registry, name, 1)
        case "xdg_wm_base":
            wmBase = skeleton_bind_wm_base(registry, name, 1)
            xdg_wm_base_add_listener(wmBase, &Self.wmBaseListener, nil)
        case "wp_viewporter":
            viewporter = skeleton_bind_viewporter(registry, name, 1)
        case "wp_fractional_scale_manager_v1":
            fractionalScale = skeleton_bind_fractional_scale(registry, name, 1)
        case "wl_output" where version >= 2:
            outputs[name] = WaylandMonitor(proxy: skeleton_bind_output(registry, name, min(version, 4)))
        default:
            break
        }
    }

    private func removed(name: UInt32) {
        outputs.removeValue(forKey: name)?.destroy()
    }

    nonisolated(unsafe) private static var listener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let data, let interface else { return }
            Unmanaged<WaylandGlobals>.fromOpaque(data).takeUnretainedValue()
                .announced(name: name, interface: String(cString: interface), version: version)
        },
        global_remove: { data, _, name in
            guard let data else { return }
            Unmanaged<WaylandGlobals>.fromOpaque(data).takeUnretainedValue().removed(name: name)
        })

    /// xdg_wm_base.ping: a client that does not answer is marked unresponsive.
    nonisolated(unsafe) private static var wmBaseListener = xdg_wm_base_listener(ping: { _, wmBase, serial in
        xdg_wm_base_pong(wmBase, serial)
    })
}
