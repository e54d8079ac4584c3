import ArgumentParser
import SkeletonDaemon
import SkeletonLayout

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Write the start layout's first frame into the frame cache for the given output sizes.",
        discussion: """
            For an initramfs or a read-only image: run it when the image is built, with the same \
            skeletond executable and settings that will run from it, and `skeletond run` shows the \
            cached frame before it parses the layout.
            """
    )

    @OptionGroup var start: StartOptions

    @Option(help: "An output size WxH; repeat for several.")
    var size: [Size]

    func validate() throws {
        if size.isEmpty { throw ValidationError("give at least one --size") }
    }

    func run() throws {
        var flags = RunFlags()
        start.apply(to: &flags)
        let settings: Settings
        switch flags.settingsSource.load() {
        case .success(let s): settings = s
        case .failure(let e):
            printError(e.lines)
            throw ExitCode(1)
        }
        switch FrameCache.prepare(settings: settings, sizes: size) {
        case .success(let paths): for path in paths { print(path) }
        case .failure(let error):
            printError(["skeletond cache: \(error)"])
            throw ExitCode(1)
        }
    }
}
