import SkeletonBackend
import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings
import SkeletonWayland

/// The display backends compiled into this executable: DRM, fbdev, with memory as the fallback,
/// and Wayland. `start`: the start's frames, whose boot display the provider adopts.
func makeDisplayProvider(start: StartFrames = StartFrames()) -> any DisplayProvider {
    WaylandDisplayProvider(otherwise: DRMDisplayProvider(start: start))
}
