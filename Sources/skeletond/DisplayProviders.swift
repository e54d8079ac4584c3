import SkeletonDaemon

/// The display backends compiled into this executable: DRM, with memory as its fallback.
func makeDisplayProvider() -> any DisplayProvider {
    DRMDisplayProvider()
}
