import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings

/// The display backends compiled into this executable: DRM, fbdev, with memory as the fallback.
/// `start`: the start's frames, whose boot display the provider adopts.
func makeDisplayProvider(start: StartFrames = StartFrames()) -> any DisplayProvider {
    DRMDisplayProvider(start: start)
}
