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
            its settings, as every later boot does from its boot record. With \
            --check-unchanged it caches nothing: it compares the settings, the layouts and the \
            executable with what the last run prepared from, and when they changed leaves the \
            mark that has skeletond-initramfs.path run skeletond-cache.service again.
            """
    )

    @OptionGroup var start: StartOptions

    @Option(help: "An output size WxH, or auto: the sizes of the outputs the daemon would drive now; repeat for several.")
    var size: [CacheSize] = []

    @Flag(help: "Cache nothing: leave the initramfs mark when the inputs differ from those the last run prepared from.")
    var checkUnchanged = false

    @Argument(parsing: .postTerminator, help: "The `skeletond run` command line the image starts the daemon with, after `--`.")
    var runCommandLine: [String] = []

    func validate() throws {
        if checkUnchanged {
            if !size.isEmpty || !runCommandLine.isEmpty { throw ValidationError("--check-unchanged takes no --size and no command line") }
        } else if size.isEmpty {
            throw ValidationError("give at least one --size")
        }
    }

    func run() throws {
        var flags = RunFlags()
        start.apply(to: &flags)
        if checkUnchanged { return try checkInputs(flags) }
        // The inputs' fingerprint is taken before anything is read for the cache: a change after
        // it is one the check sees.
        let inputs = CacheInputs(settingsPath: flags.configPath, layoutsDirectory: try loadSettings(flags).layoutsDirectory)
        let settings = try loadSettings(flags)
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
        if let directory = settings.frameCacheDirectory {
            do { try inputs.record(in: directory) } catch {
                printError(["skeletond cache: cannot write \(directory)/\(CacheInputs.fileName): \(error)"])
                throw ExitCode(1)
            }
        }
    }

    /// The settings, or their errors printed and exit status 1.
    private func loadSettings(_ flags: RunFlags) throws -> Settings {
        switch flags.settingsSource.load() {
        case .success(let settings): return settings
        case .failure(let e):
            printError(e.lines)
            throw ExitCode(1)
        }
    }

    /// `--check-unchanged`: the mark when the inputs are no longer those of the last run's
    /// fingerprint (settings that no longer read count as changed). Nothing when no run wrote one.
    private func checkInputs(_ flags: RunFlags) throws {
        let directory: String
        let now: CacheInputs?
        switch flags.settingsSource.load() {
        case .success(let settings):
            guard let cache = settings.frameCacheDirectory else { return }
            directory = cache
            now = CacheInputs(settingsPath: flags.configPath, layoutsDirectory: settings.layoutsDirectory)
        case .failure(let e):
            printError(e.lines)
            // Where the cache is cannot be read from them: the flag's directory, else the default one.
            if flags.frameCache == "none" { return }
            directory = flags.frameCache ?? Settings.defaultFrameCacheDirectory
            now = nil
        }
        guard let recorded = CacheInputs.recorded(in: directory), recorded != now else { return }
        let mark: String
        do {
            mark = try FrameCache.markInitramfsOutdated(in: directory, why: "the settings, a layout or the executable changed while the next boot was prepared")
        } catch {
            printError(["skeletond cache: cannot write \(directory)/\(FrameCache.initramfsOutdatedMark): \(error)"])
            throw ExitCode(1)
        }
        print("skeletond cache: the settings, a layout or the executable changed while the next boot was prepared; \(mark) has it prepared again")
    }
}
