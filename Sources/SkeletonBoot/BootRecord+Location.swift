#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SkeletonSystem

extension BootRecord {
    /// Where a start's record is: in `directory`, named by the key.
    public struct Location: Equatable, Sendable {
        public let directory: String
        public let path: String

        public init(directory: String, path: String) {
            self.directory = directory
            self.path = path
        }
    }

    /// The record's location for these arguments (argv without the program name) and settings
    /// file; nil for anything but `run`, for a cache directory that is not absolute (`none`
    /// among them), for a settings file that is there but cannot be read whole, and for an
    /// executable without a build id. Reads C strings: this runs before anything else.
    public static func location(arguments argv: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>) -> Location? {
        location(arguments: argv) { settingsPath, hash in
            guard SystemCalls.fileExists(settingsPath) else {
                hash.add(string: "no settings file")
                return true
            }
            // A settings file that cannot be read whole is no key: the usual start reports it.
            return SystemCalls.withFileBytes(settingsPath, limit: maximumFileSize) { hash.add($0) }
        }
    }

    /// The location a start with `arguments` (from `run` on) looks in, when the settings file
    /// it reads holds `settings` (nil: it has none): where `skeletond cache` puts a plan for an
    /// image's first boot.
    public static func location(runArguments arguments: [String], settings: [UInt8]?) -> Location? {
        var argv = arguments.map { strdup($0) }
        defer { for arg in argv { free(arg) } }
        return argv.withUnsafeMutableBufferPointer { buffer in
            location(arguments: UnsafeBufferPointer(buffer)) { _, hash in
                if let settings { hash.add(settings) } else { hash.add(string: "no settings file") }
                return true
            }
        }
    }

    /// `addSettings` adds the bytes of the settings file at the path it gets (false: no key).
    private static func location(arguments argv: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>,
                                 addSettings: (String, inout FNV1a) -> Bool) -> Location? {
        guard let (config, cache) = runFlagValues(arguments: argv) else { return nil }
        // Checked on the C string: String.hasPrefix runs the standard library's grapheme code.
        if let cache, cache[0] != CChar(UInt8(ascii: "/")) { return nil }
        let directory = cache.map { String(cString: $0) } ?? BootDefaults.frameCacheDirectory
        var hash = FNV1a()
        hash.add(string: "skeletond boot record 2")
        guard SystemCalls.withBuildID({ hash.add($0) }) else { return nil }
        for arg in argv { if let arg { hash.add(UnsafeRawBufferPointer(start: arg, count: strlen(arg))) } }
        guard addSettings(config.map { String(cString: $0) } ?? BootDefaults.settingsPath, &hash) else { return nil }
        return Location(directory: directory, path: hash.path(in: directory, suffix: fileSuffix))
    }

    /// The values of `--config` and `--frame-cache` (`--name value` or `--name=value`; the last
    /// one when repeated) in a `run` command line; nil for any other command.
    ///
    /// A second reading of two flags `RunFlags` parses, kept because it runs first: `main` calls
    /// it (through `StartFrames.atBoot`) on the raw `argv` before anything else, and a boot with
    /// a record shows its frame from what it finds. `RunFlags` cannot serve here: it is in
    /// SkeletonSettings, which depends on this module, and it reads an array of Swift strings,
    /// whose making (allocations, generic metadata) is first-run code the boot path keeps out
    /// before the first frame; this walk compares C strings in place and allocates nothing.
    /// Where `RunFlags(bootArguments:)` takes a command line the two agree, and where it takes
    /// none this one finds nothing else than `run` (`BootFlagAgreementTests`).
    static func runFlagValues(arguments argv: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>)
        -> (config: UnsafeMutablePointer<CChar>?, frameCache: UnsafeMutablePointer<CChar>?)? {
        guard argv.count >= 1, let command = argv[0], strcmp(command, "run") == 0 else { return nil }
        var config: UnsafeMutablePointer<CChar>?
        var cache: UnsafeMutablePointer<CChar>?
        var i = 1
        while i < argv.count, let arg = argv[i] {
            if let value = flagValue(arg, "--config", next: i + 1 < argv.count ? argv[i + 1] : nil) { config = value }
            if let value = flagValue(arg, "--frame-cache", next: i + 1 < argv.count ? argv[i + 1] : nil) { cache = value }
            i += 1
        }
        return (config, cache)
    }

    /// `--name value` or `--name=value`.
    private static func flagValue(_ arg: UnsafeMutablePointer<CChar>, _ name: StaticString, next: UnsafeMutablePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
        let n = name.utf8CodeUnitCount
        let matches = name.utf8Start.withMemoryRebound(to: CChar.self, capacity: n) { strncmp(arg, $0, n) == 0 }
        guard matches else { return nil }
        if arg[n] == 0 { return next }
        return arg[n] == CChar(UInt8(ascii: "=")) ? arg + n + 1 : nil
    }
}
