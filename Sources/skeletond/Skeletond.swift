import ArgumentParser
import SkeletonBoot
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
                                               CaptureCommand.self, KeymapCommand.self]
        #if canImport(SkeletonPreview)
        all.append(PreviewCommand.self)
        #endif
        return all + [BenchCommand.self, BenchControlCommand.self]
    }

    /// The daemon started the usual way (`run` and plain flags) goes straight to work:
    /// ArgumentParser's reflection costs more than the rest of start-up on a slow boot CPU.
    /// Everything else, help and mistakes included, goes through ArgumentParser.
    /// Before that, a start that has a boot record puts its first frame on screen from it.
    static func main() {
        // One executable for both: `skeletonctl` is a symlink to this one.
        if calledAs("skeletonctl") {
            Skeletonctl.main()
            return
        }
        // `plymouth` in an initramfs without Plymouth (the hook's link): its client's requests.
        if calledAs("plymouth") { SystemCalls.exit(PlymouthClient.main(arguments: plainArguments())) }
        if firstArgumentIs("keymap"), let status = KeymapCommand.runPlain(plainArguments()) { SystemCalls.exit(status) }
        let arguments = UnsafeBufferPointer(start: CommandLine.unsafeArgv + 1, count: max(0, Int(CommandLine.argc) - 1))
        // While the daemon started in the initramfs shows the skeleton, this one must not touch
        // the display: it checks that daemon first (`InitramfsDaemonCheck`).
        let attaching = SystemCalls.fileExists(BootDefaults.initramfsMarkerPath) && SystemCalls.environment("SKELETOND_INITRAMFS") != "1"
        let start = attaching ? StartFrames() : StartFrames.atBoot(arguments: arguments)
        if let flags = RunFlags(bootArguments: plainArguments()) {
            let status = Daemon.main(flags: flags, provider: makeDisplayProvider(start: start), start: start)
            // A start that failed before it opened the display puts the console back.
            start.releaseBootDisplay()
            SystemCalls.exit(status)
        }
        // Help or a mistake: whatever the record showed goes back (the console).
        start.releaseBootDisplay()
        main(nil)
    }

    /// The arguments after the executable's name. `CommandLine.arguments` makes the same
    /// array through the standard library's unspecialised code, several thousand instructions
    /// run for the first time at each start (`scripts/qemu/footprint.py` ends the boot path here).
    @inline(never)
    static func plainArguments() -> [String] {
        var arguments: [String] = []
        for i in 1..<max(1, Int(CommandLine.argc)) {
            if let argument = CommandLine.unsafeArgv[i] { arguments.append(String(cString: argument)) }
        }
        return arguments
    }

    /// Whether argv[0]'s last path component is `name`, read as C bytes: nothing of Swift's
    /// collections runs before a boot record's frame.
    static func calledAs(_ name: StaticString) -> Bool {
        guard let argv0 = CommandLine.unsafeArgv[0] else { return false }
        var start = argv0
        var p = argv0
        while p.pointee != 0 {
            if p.pointee == 0x2F { start = p + 1 }
            p += 1
        }
        return equals(start, name)
    }

    /// Whether argv[1] is `name`, read as C bytes: nothing of Swift's collections runs before
    /// a boot record's frame.
    static func firstArgumentIs(_ name: StaticString) -> Bool {
        guard CommandLine.argc > 1, let argument = CommandLine.unsafeArgv[1] else { return false }
        return equals(argument, name)
    }

    private static func equals(_ string: UnsafeMutablePointer<CChar>, _ name: StaticString) -> Bool {
        let bytes = name.utf8Start
        for i in 0..<name.utf8CodeUnitCount where UInt8(bitPattern: string[i]) != bytes[i] { return false }
        return string[name.utf8CodeUnitCount] == 0
    }
}
