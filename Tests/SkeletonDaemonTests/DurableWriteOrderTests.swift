#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import Testing

private let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// What the next boot reads survives a power cut: each file is written under a temporary name,
/// synced, renamed over its name, and then its directory is synced (without that last step the
/// rename itself may be lost, and the next boot finds the old file). Seen from outside, in the
/// system calls `skeletond cache` makes (strace).
@Suite(.enabled(if: strace != nil, "needs strace (Debian's strace)"))
struct DurableWriteOrderTests {
    /// The names renamed into `directory` from a temporary file synced before the rename, with
    /// `directory` synced after it, in strace's lines of one process.
    static func durablyWritten(_ lines: [Substring], in directory: String) -> [String] {
        var paths: [Int: String] = [:]
        var synced: Set<String> = []
        var renamed: [String] = []
        var durable: [String] = []
        for line in lines {
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            guard let result = line.split(separator: " = ").last.flatMap({ Int($0.prefix { $0 == "-" || $0.isNumber }) }), result >= 0 else { continue }
            if line.hasPrefix("openat("), let path = quoted.first {
                paths[result] = path
            } else if line.hasPrefix("fsync("), let fd = Int(line.dropFirst(6).prefix { $0.isNumber }), let path = paths[fd] {
                synced.insert(path)
                if path == directory {
                    durable += renamed
                    renamed = []
                }
            } else if line.hasPrefix("rename"), quoted.count == 2, quoted[1].hasPrefix(directory + "/"), synced.contains(quoted[0]) {
                renamed.append(String(quoted[1].dropFirst(directory.count + 1)))
            }
        }
        return durable
    }

    @Test func eachFileIsSyncedRenamedAndItsDirectorySynced() throws {
        let scene = try CacheWriterScene(name: "durable", sizes: ["64x48"])
        defer { scene.remove() }
        func traced(_ arguments: [String]) throws -> [Substring] {
            let trace = scene.directory + "/trace"
            let run = try runTool(strace!, ["-qq", "-s", "4096", "-e", "trace=openat,fsync,rename,renameat,renameat2", "-o", trace,
                                            scene.skeletond] + arguments)
            try #require(run.status == 0, "\(run.err)")
            return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        }
        try scene.useLayout(version: 0)
        var lines = try traced(scene.cacheArguments)
        // A changed layout: the check leaves the mark.
        try scene.useLayout(version: 1)
        lines += try traced(scene.checkArguments)

        let names = try scene.files().keys.sorted()
        #expect(names.count == 4 && names.contains(FrameCache.initramfsOutdatedMark) && names.contains(CacheInputs.fileName), "\(names)")
        #expect(Self.durablyWritten(lines, in: scene.cache).sorted() == names,
                "\(lines.filter { $0.contains(scene.cache) || $0.hasPrefix("fsync") }.joined(separator: "\n"))")
    }
}
