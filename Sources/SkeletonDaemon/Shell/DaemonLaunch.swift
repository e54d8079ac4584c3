import SkeletonBackend
import SkeletonBoot
import SkeletonSettings
import SkeletonSystem

/// `skeletond run` with plain flags, as the boot starts it, before any command-line parser:
/// a start that has a boot record puts its first frame on screen from it first. Shared by the
/// package's executable and the initramfs's.
public enum DaemonLaunch {
    /// Runs the daemon and exits with its status when the arguments are `run` and plain flags;
    /// returns when they are anything else (help, a mistake: the caller says what), with
    /// whatever the boot record showed given back (the console).
    /// `provider`: the display backends of the executable, given the start's frames.
    public static func runIfPlain(provider: (StartFrames) -> any DisplayProvider) {
        // While the daemon started in the initramfs shows the skeleton, this one must not touch
        // the display: it checks that daemon first (`InitramfsDaemonCheck`).
        let besideInitramfsDaemon = SystemCalls.fileExists(BootDefaults.initramfsMarkerPath) && !InitramfsStart.requested
        let start = besideInitramfsDaemon ? StartFrames() : StartFrames.atBoot(arguments: ProcessArguments.cArguments)
        if let flags = RunFlags(bootArguments: ProcessArguments.argumentStrings()) {
            let status = Daemon.main(flags: flags, provider: provider(start), start: start)
            // A start that failed before it opened the display puts the console back.
            start.releaseBootDisplay()
            SystemCalls.exit(status)
        }
        start.releaseBootDisplay()
    }
}
