#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import Testing

/// A directory where `skeletond cache` prepares the next boot (frame cache entries, the boot
/// plan, the inputs' fingerprint) from a layout in two versions, so that the files of one run
/// can be told from those of the run before; and the runs themselves, whole or killed.
struct CacheWriterScene {
    let directory: String
    var layouts: String { directory + "/layouts" }
    var settings: String { directory + "/s.json" }
    var cache: String { directory + "/cache" }
    var mark: String { cache + "/" + FrameCache.initramfsOutdatedMark }
    let skeletond = builtExecutable("skeletond")
    /// Output sizes: a large one, whose entry takes a while to render and write.
    let sizes: [String]

    init(name: String, sizes: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))").path
        self.sizes = sizes
        try FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try "{}".write(toFile: settings, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    static func layout(version: Int) -> String {
        """
        {"name": "still", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "appearance": {"tint": "\(version == 0 ? "#3060C0" : "#C06030")"},
         "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
         "root": {"kind": "view", "children": [{"kind": "image", "frame": [20, 20, 60, 60], "cornerRadius": 8}]}}
        """
    }

    func useLayout(version: Int) throws {
        try Self.layout(version: version).write(toFile: layouts + "/still.json", atomically: true, encoding: .utf8)
    }

    /// `skeletond cache` for `sizes`, with a boot plan for the `run` of the same files.
    var cacheArguments: [String] {
        let common = ["--config", settings, "--layouts", layouts, "--layout", "still", "--frame-cache", cache]
        return ["cache"] + common + sizes.flatMap { ["--size", $0] } + ["--", "run"] + common
    }

    /// `skeletond cache --check-unchanged`: the mark when the layout changed since the last run.
    var checkArguments: [String] {
        ["cache", "--check-unchanged", "--config", settings, "--layouts", layouts, "--frame-cache", cache]
    }

    /// The cache directory's files and their bytes.
    func files() throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: cache) {
            files[name] = Array(try Data(contentsOf: URL(fileURLWithPath: cache + "/" + name)))
        }
        return files
    }

    /// Runs skeletond with `arguments`, killed with SIGKILL after `delay` seconds unless it ended
    /// first; its pid, and its exit status when it ended by itself.
    func run(_ arguments: [String], killAfter delay: Double) throws -> (pid: Int32, status: Int32?) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: skeletond)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning && Date() < deadline { usleep(200) }
        let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
        process.waitUntilExit()
        let signalled = process.terminationReason == .uncaughtSignal
        return (process.processIdentifier, killed && signalled ? nil : process.terminationStatus)
    }

    /// The seconds a whole run of `arguments` takes (the median of three).
    func duration(of arguments: [String]) throws -> Double {
        var times: [Double] = []
        for _ in 0..<3 {
            let start = Date()
            let ended = try run(arguments, killAfter: 60)
            try #require(ended.status == 0, "\(arguments) failed")
            times.append(Date().timeIntervalSince(start))
        }
        return times.sorted()[1]
    }
}
