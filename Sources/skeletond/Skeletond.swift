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
    /// Before that, a start that has a boot record puts its first frame on screen from it.
    static func main() {
        let arguments = UnsafeBufferPointer(start: CommandLine.unsafeArgv + 1, count: Int(CommandLine.argc) - 1)
        let record = BootRecord.location(arguments: arguments)
        let boot = record.flatMap(BootRecord.show)
        if let flags = RunFlags(bootArguments: Array(CommandLine.arguments.dropFirst())) {
            Glibc.exit(Daemon.main(flags: flags, provider: makeDisplayProvider(boot: boot), bootRecord: record))
        }
        // Help or a mistake: whatever the record showed goes back (the console).
        boot?.release()
        main(nil)
    }
}
