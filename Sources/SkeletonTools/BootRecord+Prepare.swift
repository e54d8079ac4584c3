import SkeletonSettings
import SkeletonBoot
import SkeletonLayout
import SkeletonSystem

extension BootRecord {
    /// `skeletond cache`'s plan (a record no boot has confirmed yet) for an image's first boot,
    /// after `FrameCache.prepare` wrote the frames at `sizes`: written beside them, named for a start with `runArguments` (from
    /// `run` on) that reads a settings file with the bytes of the one at `settingsPath` (none
    /// when it is missing), with the paths that start will use. `settings` are the cache
    /// command's (its flags on that file), which found the frames. A record a start confirmed for
    /// the same layout is kept rather than replaced by a plan. Returns the path of the plan (or
    /// of that record), or why there is none.
    public static func preparePlan(settings: Settings, settingsPath: String, runArguments: [String], sizes: [Size]) -> Result<String, ToolError> {
        var settingsFile: [UInt8]?
        if SystemCalls.fileExists(settingsPath) {
            guard let bytes = SystemCalls.readFile(settingsPath) else { return .failure(ToolError("cannot read \(settingsPath)")) }
            settingsFile = bytes
        }
        let commandLine = runArguments.joined(separator: " ")
        guard let flags = RunFlags(bootArguments: runArguments) else {
            return .failure(ToolError("`\(commandLine)` is not a command line the daemon starts from directly (run, then --name value flags)"))
        }
        var target = Settings()
        if let settingsFile {
            switch Settings.parse(settingsFile, file: flags.configPath) {
            case .success(let s): target = s
            case .failure(let e): return .failure(ToolError(e.lines.joined(separator: "; ")))
            }
        }
        flags.apply(to: &target)
        guard target.backend != .memory else { return .failure(ToolError("`\(commandLine)` does not use DRM")) }
        guard let start = settings.startLayout, target.startLayout == start else {
            return .failure(ToolError("`\(commandLine)` starts with layout \(target.startLayout ?? "none"), this cache command with \(settings.startLayout ?? "none")"))
        }
        guard target.frameCacheDirectory != nil else { return .failure(ToolError("`\(commandLine)` has the frame cache off")) }
        guard let location = BootRecord.location(runArguments: runArguments, settings: settingsFile),
              let hostDirectory = settings.frameCacheDirectory,
              let targetCache = FrameCache(directory: target.frameCacheDirectory), targetCache.directory == location.directory else {
            return .failure(ToolError("`\(commandLine)` keeps its frame cache elsewhere than where it looks for its boot record "
                                        + "(--frame-cache, else \(Settings.defaultFrameCacheDirectory))"))
        }
        guard let source = LayoutStore(directory: settings.layoutsDirectory).source(of: start) else {
            return .failure(ToolError("start layout \"\(start)\": cannot read it"))
        }
        let choices = target.bootChoices
        let plan = BootRecord(hiddenMarkPath: choices.hiddenMarkPath,
                              layoutPath: LayoutStore(directory: target.layoutsDirectory).filePath(of: start),
                              layoutHash: BootRecord.layoutHash(source.text), devicePath: choices.device, connectors: choices.connectors,
                              modes: choices.modes,
                              frames: sizes.map { Frame(size: $0, path: targetCache.path(layoutName: source.name, layoutText: source.text, size: $0)) })
        let name = location.path.split(separator: "/").last.map(String.init) ?? ""
        let here = BootRecord.Location(directory: hostDirectory, path: hostDirectory + "/" + name)
        // A record a start confirmed for this layout says more than a plan (the outputs it
        // drove, the framebuffer it drew on before the native driver): it stays.
        let confirmed = SystemCalls.readFile(here.path, limit: BootRecord.maximumFileSize)?.withUnsafeBytes { bytes in
            BootRecordView(bytes, checkingStart: false).map { $0.isConfirmed && $0.layoutHash == plan.layoutHash }
        }
        if confirmed == true { return .success(here.path) }
        do { try plan.write(to: here) } catch {
            return .failure(ToolError("cannot write \(here.path): \(error)"))
        }
        return .success(here.path)
    }
}
