import SkeletonBackend
import SkeletonClient
import SkeletonDaemon
import SkeletonSystem

/// skeletond as the initramfs carries it (the hook copies it as /usr/bin/skeletond): `run` with
/// the plain flags skeletond.service gives, `skeletonctl` (`InitramfsControl`) and `plymouth`
/// (`PlymouthClient`) by their links. The DRM, fbdev and memory outputs; no command line of the
/// tools, no capture, no Wayland output (the package's /usr/bin/skeletond has them).
@main
enum SkeletondInitramfs {
    static func main() {
        if ProcessArguments.calledAs("skeletonctl") {
            SystemCalls.exit(InitramfsControl.main(arguments: ProcessArguments.argumentStrings()))
        }
        if ProcessArguments.calledAs("plymouth") {
            SystemCalls.exit(PlymouthClient.main(arguments: ProcessArguments.argumentStrings()))
        }
        DaemonLaunch.runIfPlain { DRMDisplayProvider(start: $0) }
        let given = ProcessArguments.argumentStrings().joined(separator: " ")
        FileDescriptor.standardError.writeAll(Array(("skeletond (the initramfs's build): cannot run \"\(given)\": it runs only `run` "
            + "with the flags of `skeletond run --help`, each as --name VALUE; the package's /usr/bin/skeletond has every command\n").utf8))
        SystemCalls.exit(64)
    }
}
