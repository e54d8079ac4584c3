import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings
#if canImport(SkeletonWayland)
import SkeletonWayland
#endif

/// The display backends compiled into this executable: DRM, fbdev, with memory as the fallback,
/// and Wayland in every build but the static one. `start`: the start's frames, whose boot
/// display the provider adopts.
func makeDisplayProvider(start: StartFrames = StartFrames()) -> any DisplayProvider {
    #if canImport(SkeletonWayland)
    WaylandDisplayProvider(otherwise: DRMDisplayProvider(start: start))
    #else
    DRMDisplayProvider(start: start)
    #endif
}
