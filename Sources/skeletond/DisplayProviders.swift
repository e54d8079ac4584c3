import SkeletonBackend
import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings
import SkeletonWayland
import SkeletonX11

/// The display backends compiled into this executable: DRM, fbdev, with memory as the fallback,
/// Wayland and X11. `start`: the start's frames, whose boot display the provider adopts.
func makeDisplayProvider(start: StartFrames = StartFrames()) -> any DisplayProvider {
    WaylandDisplayProvider(otherwise: X11DisplayProvider(otherwise: DRMDisplayProvider(start: start)))
}
