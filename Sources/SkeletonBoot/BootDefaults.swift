/// The paths a start uses when its flags name none: the boot path needs them before the
/// settings are read, and the settings default to the same.
public enum BootDefaults {
    public static let settingsPath = "/etc/skeletond/skeletond.json"
    public static let frameCacheDirectory = "/var/cache/skeletond"
    /// Written by a daemon started from the initramfs beside the default control socket.
    public static let initramfsMarkerPath = "/run/skeletond/initramfs.pid"
}
