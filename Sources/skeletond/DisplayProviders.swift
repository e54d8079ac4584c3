import SkeletonDaemon

/// The display backends compiled into this executable.
func makeDisplayProvider() -> any DisplayProvider {
    MemoryDisplayProvider()
}
