import ArgumentParser
import SkeletonBoot
import SkeletonClient
import SkeletonControl
import SkeletonDaemon
import SkeletonSettings
import SkeletonSystem

@main
struct Skeletond: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skeletond",
        abstract: "Draws an app's skeleton screen on the display from early boot.",
        subcommands: commands
    )

    private static var commands: [any ParsableCommand.Type] {
        var all: [any ParsableCommand.Type] = [RunCommand.self, CacheCommand.self, RenderCommand.self, ValidateCommand.self, TreeCommand.self,
                                               CaptureCommand.self, BrowserCommand.self, KeymapCommand.self]
        #if canImport(SkeletonPreview)
        all.append(PreviewCommand.self)
        #endif
        return all + [BenchCommand.self, BenchControlCommand.self]
    }

    /// The daemon started the usual way (`run` and plain flags) goes straight to work
    /// (`DaemonLaunch`): ArgumentParser's reflection costs more than the rest of start-up on a
    /// slow boot CPU. Everything else, help and mistakes included, goes through ArgumentParser.
    static func main() {
        // One executable for both: `skeletonctl` is a symlink to this one.
        if ProcessArguments.calledAs("skeletonctl") {
            Skeletonctl.main()
            return
        }
        // `plymouth` in an initramfs without Plymouth (the hook's link): its client's requests.
        if ProcessArguments.calledAs("plymouth") { SystemCalls.exit(PlymouthClient.main(arguments: ProcessArguments.argumentStrings())) }
        if ProcessArguments.firstArgumentIs("keymap"), let status = KeymapCommand.runPlain(ProcessArguments.argumentStrings()) {
            SystemCalls.exit(status)
        }
        DaemonLaunch.runIfPlain { makeDisplayProvider(start: $0) }
        main(nil)
    }
}
