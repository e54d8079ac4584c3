#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import Testing

/// A full disk under the frame cache (a tmpfs of 64 KiB, filled): `skeletond cache` and its
/// check fail saying so, what an earlier run wrote stays whole and in use, no temporary file is
/// left, and the daemon still starts and draws.
@Suite(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
    /// Fills the file system of `directory` with a file named `name` until it is full.
    func fill(_ directory: String, name: String) {
        let fd = open(directory + "/" + name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(fd) }
        let page = [UInt8](repeating: 0xAA, count: 4096)
        while write(fd, page, page.count) > 0 {}
        while write(fd, page, 1) > 0 {}
    }

    @Test func aFullDiskKeepsThePreviousFilesAndTheDaemonStillDraws() throws {
        let scene = try CacheWriterScene(name: "full-disk", sizes: ["64x48"])
        defer { scene.remove() }
        let mounted = try runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", scene.cache])
        try #require(mounted.status == 0, "mount: \(mounted.err)")
        defer { _ = try? runTool("/bin/umount", [scene.cache]) }

        try scene.useLayout(version: 0)
        let first = try runTool(scene.skeletond, scene.cacheArguments)
        try #require(first.status == 0, "\(first.err)")
        let previous = try scene.files()
        fill(scene.cache, name: "filler")

        try scene.useLayout(version: 1)
        let full = try runTool(scene.skeletond, scene.cacheArguments)
        #expect(full.status == 1 && full.err.hasPrefix("skeletond cache: cannot write \(scene.cache)/")
                && full.err.hasSuffix(": No space left on device\n"), "\(full.err)")
        var left = try scene.files()
        left["filler"] = nil
        #expect(left == previous, "the earlier run's files stay, nothing else: \(left.keys.sorted())")

        let check = try runTool(scene.skeletond, scene.checkArguments)
        #expect(check.status == 1 && check.err.hasPrefix("skeletond cache: cannot write \(scene.mark): ")
                && check.err.contains("No space left on device"), "\(check)")
        #expect(!FileManager.default.fileExists(atPath: scene.mark), "a mark that could not be written is not left empty")
        left = try scene.files()
        left["filler"] = nil
        #expect(left == previous, "\(left.keys.sorted())")

        // The layout the earlier run cached starts from its entry; the changed one is drawn, and
        // the daemon says why its entry is not kept.
        let cached = try DaemonProcess(layouts: ["still": CacheWriterScene.layout(version: 0)], startLayout: "still",
                                       frameCache: scene.cache, extraArguments: ["--size", "64x48"])
        #expect(cached.logContains("first frame on memory"), "\(cached.log)")
        #expect(cached.log.contains("from the frame cache)"), "\(cached.log)")
        #expect(cached.stop() == 0)
        let changed = try DaemonProcess(layouts: ["still": CacheWriterScene.layout(version: 1)], startLayout: "still",
                                        frameCache: scene.cache, extraArguments: ["--size", "64x48"])
        #expect(changed.logContains("first frame on memory"), "\(changed.log)")
        #expect(changed.logContains("frame cache: cannot write \(scene.cache)/"), "\(changed.log)")
        #expect(changed.log.contains("No space left on device"), "\(changed.log)")
        #expect(changed.stop() == 0)
    }
}
