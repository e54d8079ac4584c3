import CSkeletonWayland
import SkeletonLayout

/// One of the compositor's monitors (wl_output, version 2 to 4): its current mode, its scale, and
/// its name ("HDMI-A-1") where the compositor says it.
final class WaylandMonitor {
    private(set) var proxy: OpaquePointer?
    private(set) var scale = 1
    private(set) var name: String?
    /// The current mode's size in pixels.
    private(set) var mode: Size?

    /// The monitor's size in the compositor's logical units: a fullscreen window's size there.
    var logicalSize: Size? { mode.map { Size(width: max(1, $0.width / scale), height: max(1, $0.height / scale)) } }

    init(proxy: OpaquePointer?) {
        self.proxy = proxy
        wl_output_add_listener(proxy, &Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        if let proxy { wl_output_destroy(proxy) }
        proxy = nil
    }

    private static func monitor(_ data: UnsafeMutableRawPointer?) -> WaylandMonitor? {
        data.map { Unmanaged<WaylandMonitor>.fromOpaque($0).takeUnretainedValue() }
    }

    nonisolated(unsafe) private static var listener = wl_output_listener(
        geometry: { _, _, _, _, _, _, _, _, _, _ in },
        mode: { data, _, flags, width, height, _ in
            guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, width > 0, height > 0 else { return }
            monitor(data)?.mode = Size(width: Int(width), height: Int(height))
        },
        done: { _, _ in },
        scale: { data, _, factor in monitor(data)?.scale = Int(max(1, factor)) },
        name: { data, _, name in monitor(data)?.name = name.map { String(cString: $0) } },
        description: { _, _, _ in })
}
