import ArgumentParser
import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings
import SkeletonDisplay
import SkeletonLayout

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Write the start layout's first frame into the frame cache for the given output sizes.",
        discussion: """
            For an initramfs or a read-only image: run it when the image is built, with the same \
            skeletond executable and settings that will run from it, and `skeletond run` shows the \
            cached frame before it parses the layout. Beside the frames goes a boot plan for the \
            `skeletond run` command line given after `--` (default: `run`, as skeletond.service \
            starts it): with it, the image's first boot shows the frame before the daemon reads \
            its settings, as every later boot does from its boot record.
            """
    )

    @OptionGroup var start: StartOptions

    @Option(help: "An output size WxH, or auto: the sizes of the outputs the daemon would drive now; repeat for several.")
    var size: [CacheSize]

    @Argument(parsing: .postTerminator, help: "The `skeletond run` command line the image starts the daemon with, after `--`.")
    var runCommandLine: [String] = []

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
        var sizes: [Size] = []
        for wanted in size {
            switch wanted {
            case .size(let s): sizes.append(s)
            case .auto:
                let options = DRMDisplay.Options(connectors: settings.outputs, modes: settings.modes, rotations: settings.rotations,
                                          rotation: settings.rotation)
                guard let found = DRMDisplay.outputSizes(path: settings.device, options: options) else {
                    printError(["skeletond cache: --size auto: no DRM display with a connected output\(settings.device.map { " at \($0)" } ?? "")"])
                    throw ExitCode(1)
                }
                sizes += found.sizes
            }
        }
        sizes = sizes.reduce(into: []) { unique, s in if !unique.contains(s) { unique.append(s) } }
        switch FrameCache.prepare(settings: settings, sizes: sizes) {
        case .success(let paths): for path in paths { print(path) }
        case .failure(let error):
            printError(["skeletond cache: \(error)"])
            throw ExitCode(1)
        }
        let runArguments = runCommandLine.isEmpty ? ["run"] : runCommandLine
        switch BootRecord.preparePlan(settings: settings, settingsPath: flags.configPath, runArguments: runArguments, sizes: sizes) {
        case .success(let path): print(path)
        case .failure(let error) where runCommandLine.isEmpty:
            // Not asked for: the frames alone still serve.
            printError(["skeletond cache: no boot plan: \(error)"])
        case .failure(let error):
            printError(["skeletond cache: no boot plan: \(error)"])
            throw ExitCode(1)
        }
    }
}
