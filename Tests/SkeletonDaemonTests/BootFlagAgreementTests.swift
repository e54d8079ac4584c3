#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@testable import SkeletonBoot
import SkeletonSettings
import Testing

/// The boot record's walk over the C `argv` (`BootRecord.runFlagValues`) reads `--config` and
/// `--frame-cache` before `RunFlags` runs; for every command line it must find what `RunFlags`
/// finds, or the boot would show the frame of another settings file or cache.
struct BootFlagAgreementTests {
    /// Words a command line is made of: both flags in both forms, empty and odd values, names
    /// that only begin like them, another flag, a value that looks like a flag, lone dashes.
    static let words = [
        "--config", "--config=/c", "--config=", "--frame-cache", "--frame-cache=/f", "--frame-cache=none",
        "--frame-cache=", "--frame-cache=/a=b", "--configx", "--config-file=/x", "--frame-caches", "--layout",
        "--socket=--config", "/v", "-", "--", "=", "run",
    ]

    /// Every command line of `run` or `render` followed by up to four of `words`.
    static var commandLines: [[String]] {
        var lines: [[String]] = [["run"], ["render"], []]
        var tails: [[String]] = [[]]
        for _ in 1...4 {
            tails = tails.flatMap { tail in words.map { tail + [$0] } }
            lines += tails.map { ["run"] + $0 }
        }
        return lines + words.map { ["render", $0] }
    }

    /// The walk's answer for `arguments`, as strings.
    func walk(_ arguments: [String]) -> (config: String?, frameCache: String?)? {
        let strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        return strings.withUnsafeBufferPointer { argv in
            BootRecord.runFlagValues(arguments: argv).map { ($0.config.map { String(cString: $0) }, $0.frameCache.map { String(cString: $0) }) }
        }
    }

    @Test func theWalkFindsWhatRunFlagsFinds() {
        var taken = 0, withConfig = 0, withCache = 0, refused = 0, disagreements: [String] = []
        for arguments in Self.commandLines {
            let found = walk(arguments)
            if (found == nil) != (arguments.first != "run") { disagreements.append("\(arguments): the walk found \(String(describing: found))") }
            guard let flags = RunFlags(bootArguments: arguments) else {
                refused += 1
                continue
            }
            taken += 1
            if flags.config != nil { withConfig += 1 }
            if flags.frameCache != nil { withCache += 1 }
            if found?.config != flags.config || found?.frameCache != flags.frameCache {
                disagreements.append("\(arguments): the walk found \(String(describing: found)), RunFlags "
                                     + "\(String(describing: flags.config)) and \(String(describing: flags.frameCache))")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        // Both answers were compared on many lines that set each flag, and on many refused ones.
        #expect(withConfig > 100 && withCache > 100 && refused > taken, "\(taken) taken, \(withConfig) with --config, \(withCache) with --frame-cache")
    }

    /// The lines an image's boot actually starts with, which the record's key is made from.
    @Test(arguments: [
        ["run"], ["run", "--config", "/etc/skeletond/skeletond.json"], ["run", "--frame-cache=/var/cache/skeletond"],
        ["run", "--layout", "feed", "--config=/c.json", "--frame-cache", "none", "--log-level", "debug"],
        ["run", "--socket", "/run/s.sock", "--frame-cache", "/x", "--config", "/y", "--max-fps", "30"],
    ])
    func usualLines(arguments: [String]) throws {
        let flags = try #require(RunFlags(bootArguments: arguments))
        let found = try #require(walk(arguments))
        #expect(found.config == flags.config)
        #expect(found.frameCache == flags.frameCache)
    }
}
