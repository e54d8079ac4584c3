import SkeletonSettings

/// What the daemon was started with: the settings in force (a reload replaces them), where they
/// come from, whether it started in the initramfs, and the seams of the switch to the real root.
struct DaemonConfig {
    var settings: Settings
    let source: SettingsSource
    /// Started in the initramfs (`SKELETOND_INITRAMFS=1`): it marks itself for the real root
    /// (`InitramfsStart`) and follows the switch there (`new-root`).
    let initramfs: Bool
    /// `SKELETON_DEBUG`: every show logs its resolved tree.
    let debugTree: Bool
    /// The clock's time at the start, for `status`'s uptime.
    let startTime: Double
    var rootSwitch = RootSwitch()
}
