import SkeletonDaemon
import SkeletonDisplay

/// The display backends compiled into this executable: DRM, with memory as its fallback.
/// `boot`: the display the boot record brought up, for the provider to adopt.
func makeDisplayProvider(boot: BootDisplay? = nil) -> any DisplayProvider {
    DRMDisplayProvider(boot: boot)
}
