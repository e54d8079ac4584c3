import SkeletonSettings
import SkeletonSystem

/// How the daemon started in the initramfs follows the switch to the real root (`new-root`):
/// which executable the real root must have for anything there to take the skeleton over, and
/// the chroot itself. Tests replace both.
struct RootSwitch {
    /// This process's executable, as the initramfs has it (the hooks copy it to the path it has
    /// in the real root); nil when /proc could not say.
    var executable: String? = SystemCalls.executablePath()
    /// Makes the path this process's root.
    var changeRoot: (String) throws(Errno) -> Void = { path throws(Errno) in try SystemCalls.changeRoot(path) }

    /// Where the real root mounted at `root` has this executable.
    func executable(under root: String) -> String {
        var base = root
        while base.hasSuffix("/") { base.removeLast() }
        return base + (executable ?? "/usr/bin/skeletond")
    }
}
