import ArgumentParser
import SkeletonDaemon
#if canImport(Glibc)
import Glibc
#endif

@main
struct Skeletond: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skeletond",
        abstract: "Draws an app's skeleton screen on the display from early boot.",
        subcommands: [RunCommand.self, CacheCommand.self, RenderCommand.self, ValidateCommand.self, TreeCommand.self, BenchCommand.self, BenchControlCommand.self]
    )

    /// The daemon started the usual way (`run` and plain flags) goes straight to work:
    /// ArgumentParser's reflection costs more than the rest of start-up on a slow boot CPU.
    /// Everything else, help and mistakes included, goes through ArgumentParser.
    static func main() {
        if let flags = RunFlags(bootArguments: Array(CommandLine.arguments.dropFirst())) {
            Glibc.exit(Daemon.main(flags: flags, provider: makeDisplayProvider()))
        }
        main(nil)
    }
}
