#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import SkeletonDaemon
import SkeletonTools
import SkeletonSettings
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import Testing

/// The frame cache: keys, the file format, and the daemon showing a cached frame before it has
/// parsed the layout, then writing the entries a start missed.
struct FrameCacheTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frame-cache-\(UUID().uuidString.prefix(8))").path

    func cache() throws -> FrameCache {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return try #require(FrameCache(directory: directory), "the test executable has a build id")
    }

    func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }

    @Test func theKeyCoversLayoutNameBytesAndSize() throws {
        defer { removeDirectory() }
        let c = try cache()
        let text = Array(TestLayouts.simpleText.utf8)
        let base = c.path(layoutName: "default", layoutText: text, size: Size(width: 200, height: 100))
        #expect(base == c.path(layoutName: "default", layoutText: text, size: Size(width: 200, height: 100)))
        #expect(base.hasPrefix(directory + "/") && base.hasSuffix("-200x100.frame"))
        var edited = text
        edited[edited.count - 2] = UInt8(ascii: " ")
        let others = [
            c.path(layoutName: "default", layoutText: edited, size: Size(width: 200, height: 100)),
            c.path(layoutName: "other", layoutText: text, size: Size(width: 200, height: 100)),
            c.path(layoutName: "default", layoutText: text, size: Size(width: 100, height: 200)),
            c.path(layoutName: "defaul", layoutText: Array("t".utf8) + text, size: Size(width: 200, height: 100)),
        ]
        #expect(Set(others + [base]).count == 5)
        #expect(FrameCache(directory: nil) == nil)
    }

    @Test func anEntryComesBackPixelForPixel() throws {
        defer { removeDirectory() }
        let c = try cache()
        let frame = PixelBuffer(width: 7, height: 3)
        for y in 0..<3 { for x in 0..<7 { frame[x, y] = UInt32(x * 0x10203 + y * 0x300000) } }
        let path = directory + "/e.frame"
        try c.store(path, from: frame.canvas)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.count == 16 + 7 * 3 * 4)
        #expect(Array(bytes.prefix(16)) == Array("SKFRAME1".utf8) + [7, 0, 0, 0, 3, 0, 0, 0])
        let back = PixelBuffer(width: 7, height: 3, fill: 0xFF)
        #expect(c.load(path, into: back.canvas))
        #expect(back.pixels == frame.pixels)
        // Into a canvas with a wider stride (a pitch), row by row.
        let pitched = UnsafeMutablePointer<UInt32>.allocate(capacity: 10 * 3)
        defer { pitched.deallocate() }
        pitched.initialize(repeating: 0xABCDEF, count: 30)
        let canvas = Canvas(base: pitched, width: 7, height: 3, stride: 10)
        #expect(c.load(path, into: canvas))
        #expect(canvas[6, 2] == frame[6, 2] && pitched[7] == 0xABCDEF)
    }

    @Test func aMissingDamagedOrMismatchedEntryIsAMiss() throws {
        defer { removeDirectory() }
        let c = try cache()
        let frame = PixelBuffer(width: 4, height: 4, fill: 0x123456)
        let path = directory + "/e.frame"
        let canvas = PixelBuffer(width: 4, height: 4).canvas
        #expect(!c.load(directory + "/missing.frame", into: canvas))
        try c.store(path, from: frame.canvas)
        #expect(!c.load(path, into: PixelBuffer(width: 4, height: 5).canvas), "another size")
        #expect(!c.load(path, into: PixelBuffer(width: 2, height: 8).canvas), "the same byte count, another shape")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[3] = UInt8(ascii: "X")
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(!c.load(path, into: canvas), "a damaged header")
        try c.store(path, from: frame.canvas)
        try Data(try Data(contentsOf: URL(fileURLWithPath: path)).dropLast(4)).write(to: URL(fileURLWithPath: path))
        #expect(!c.load(path, into: canvas), "a truncated file")
    }

    /// One entry per output size: a new layout's entry replaces the old one of its size.
    @Test func theCacheKeepsOneEntryPerSize() throws {
        defer { removeDirectory() }
        let c = try cache()
        let small = PixelBuffer(width: 4, height: 4), large = PixelBuffer(width: 8, height: 4)
        let old = c.path(layoutName: "a", layoutText: Array("1".utf8), size: Size(width: 4, height: 4))
        let new = c.path(layoutName: "a", layoutText: Array("2".utf8), size: Size(width: 4, height: 4))
        let other = c.path(layoutName: "a", layoutText: Array("1".utf8), size: Size(width: 8, height: 4))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
        try c.store(old, from: small.canvas)
        try c.store(other, from: large.canvas)
        try c.store(new, from: small.canvas)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let expected = [new, other].map { String($0.split(separator: "/").last!) } + ["notes.txt"]
        #expect(names == expected.sorted())
    }

    @Test func theSettingsKey() throws {
        guard case .success(let s) = Settings.parse(Array(#"{"frameCache": "/srv/cache"}"#.utf8), file: "s.json") else {
            Issue.record("rejected"); return
        }
        #expect(s.frameCacheDirectory == "/srv/cache")
        #expect(Settings().frameCacheDirectory == "/var/cache/skeletond")
        guard case .success(let off) = Settings.parse(Array(#"{"frameCache": null}"#.utf8), file: "s.json") else {
            Issue.record("rejected"); return
        }
        #expect(off.frameCacheDirectory == nil)
        guard case .failure(let e) = Settings.parse(Array(#"{"frameCache": "cache"}"#.utf8), file: "s.json") else {
            Issue.record("a relative path was accepted"); return
        }
        #expect(e.lines == [#"s.json: frameCache: expected an absolute path or null, found "cache""#])
    }

    /// The first start misses, draws and writes the entry; the second shows it before parsing
    /// the layout, and it is the very frame the renderer draws.
    @Test func theDaemonWritesAnEntryAndShowsItAtTheNextStart() throws {
        defer { removeDirectory() }
        let first = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory)
        #expect(first.logContains("frame cache: wrote \(directory)/"))
        #expect(!first.log.contains("from the frame cache"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(files.count == 1 && files[0].hasSuffix("-200x100.frame"), "\(files)")
        #expect(first.stop() == 0)
        // Memory has no display to bring up before the settings are read: no boot record.
        #expect(!first.log.contains("boot record"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)

        let second = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory,
                                       sameDirectoryAs: first)
        #expect(second.logContains("first frame on memory"))
        #expect(second.log.contains("from the frame cache)"), "\(second.log)")
        #expect(!second.log.contains("frame cache: wrote"))
        let c = try cache()
        let entry = PixelBuffer(width: 200, height: 100)
        #expect(c.load(directory + "/" + files[0], into: entry.canvas))
        guard case .success(let layout) = LayoutLoader.load(text: Array(DaemonProcessTests.staticLayout.utf8), file: "still.json") else {
            Issue.record("layout invalid"); return
        }
        let expected = PixelBuffer(width: 200, height: 100)
        FrameRenderer(layout: layout, outputSize: Size(width: 200, height: 100)).renderFull(at: 0, into: expected.canvas)
        #expect(entry.pixels == expected.pixels)
    }

    /// A display that appears after the start (here the memory fallback once the wait for a
    /// card ran out) gets its entry written too, for the next boot.
    @Test func aLateDisplayGetsItsEntryWritten() throws {
        defer { removeDirectory() }
        let d = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory,
                                  extraArguments: ["--backend", "auto", "--device", directory + "/no-such-card", "--display-wait", "0.2"])
        #expect(d.logContains("drawing into memory"))
        #expect(d.logContains("frame cache: wrote \(directory)/"), "\(d.log)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix("-200x100.frame") }.count == 1)
    }

    /// Started from the initramfs, whose files go at the switch to the real root, the daemon
    /// writes no entry while it shows the skeleton; it writes it once the skeleton is hidden
    /// (by then under the real root), and that is the frame the next start shows.
    /// A daemon started as from the initramfs, its first frame up and a turn of the loop after
    /// it (where a start outside the initramfs writes its entry), nothing written yet.
    func initramfsDaemon() throws -> (DaemonProcess, TestClient) {
        let d = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory,
                                  environment: ["SKELETOND_INITRAMFS": "1"])
        #expect(d.logContains("first frame on memory"))
        let c = try d.connect()
        #expect(c.request(#"{"command": "ping"}"#)?["ok"] == true)
        #expect(!d.log.contains("frame cache: wrote"), "\(d.log)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).isEmpty)
        return (d, c)
    }

    @Test func fromTheInitramfsTheEntryWaitsForTheHide() throws {
        defer { removeDirectory() }
        let (d, c) = try initramfsDaemon()
        #expect(c.request(#"{"command": "hide", "transition": {"kind": "none"}}"#)?["hidden"] == true)
        #expect(d.logContains("frame cache: wrote \(directory)/"), "\(d.log)")
        // The initramfs it came from lacks the entry: the mark asks for it to be made again.
        #expect(d.logContains("asks for the initramfs to be made again"), "\(d.log)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files.count == 2 && files[0] == FrameCache.initramfsOutdatedMark && files[1].hasSuffix("-200x100.frame"), "\(files)")
        #expect(d.stop() == 0)
        // A start from an initramfs that had everything writes nothing, and leaves no mark.
        try FileManager.default.removeItem(atPath: directory + "/" + FrameCache.initramfsOutdatedMark)
        let again = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory,
                                      environment: ["SKELETOND_INITRAMFS": "1"])
        #expect(again.logContains("from the frame cache)"), "\(again.log)")
        let a = try again.connect()
        #expect(a.request(#"{"command": "hide", "transition": {"kind": "none"}}"#)?["hidden"] == true)
        #expect(a.request(#"{"command": "ping"}"#)?["ok"] == true)
        #expect(!FileManager.default.fileExists(atPath: directory + "/" + FrameCache.initramfsOutdatedMark), "\(again.log)")
        #expect(again.stop() == 0)
        // (Another run directory: the hide left its mark in this one.)
        let next = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory)
        #expect(next.logContains("first frame on memory"))
        #expect(next.log.contains("from the frame cache)"), "\(next.log)")
    }

    /// The kiosk's hand-over hides with the frame retained for the app (`hide --retain`): the
    /// entry that waited for the real root is written then too.
    @Test func fromTheInitramfsARetainedHideWritesTheEntryToo() throws {
        defer { removeDirectory() }
        let (d, c) = try initramfsDaemon()
        #expect(c.request(#"{"command": "hide", "retain": true}"#)?["ok"] == true)
        #expect(d.logContains("frame cache: wrote \(directory)/"), "\(d.log)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files == [FrameCache.initramfsOutdatedMark, files.last ?? ""] && files[1].hasSuffix("-200x100.frame"), "\(files)")
        #expect(d.stop() == 0)
    }

    /// A directory that cannot be written (a read-only root early in boot) is tried again when
    /// the skeleton is hidden, and then given up with a warning; the daemon carries on.
    @Test func anUnwritableDirectoryIsTriedAgainAtHide() throws {
        defer { removeDirectory() }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let notADirectory = directory + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: notADirectory))
        let d = try DaemonProcess(frameCache: notADirectory + "/cache")
        #expect(d.logContains("trying again when the skeleton is hidden"))
        let c = try d.connect()
        #expect(c.request(#"{"command": "hide", "transition": {"kind": "none"}}"#)?["hidden"] == true)
        #expect(d.logContains("<4>frame cache: cannot write \(notADirectory)/cache/"))
        #expect(c.request(#"{"command": "ping"}"#)?["ok"] == true)
    }

    @Test func skeletondCacheWritesWhatTheDaemonLooksUp() throws {
        defer { removeDirectory() }
        let layouts = directory + "/layouts"
        try FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try DaemonProcessTests.staticLayout.write(toFile: layouts + "/still.json", atomically: true, encoding: .utf8)
        let skeletond = builtExecutable("skeletond")
        let made = try runTool(skeletond, ["cache", "--config", directory + "/none.json", "--layouts", layouts, "--layout", "still",
                                           "--size", "200x100", "--size", "64x48", "--frame-cache", directory + "/cache"])
        #expect(made.status == 1 && made.err.contains("none.json: cannot read the settings file"), "\(made.err)")
        try "{}".write(toFile: directory + "/s.json", atomically: true, encoding: .utf8)
        let ok = try runTool(skeletond, ["cache", "--config", directory + "/s.json", "--layouts", layouts, "--layout", "still",
                                         "--size", "200x100", "--size", "64x48", "--frame-cache", directory + "/cache"])
        #expect(ok.status == 0, "\(ok.err)")
        let written = ok.out.split(separator: "\n").map(String.init)
        #expect(written.count == 2 && written[0].hasSuffix("-200x100.frame") && written[1].hasSuffix("-64x48.frame"), "\(ok.out)")
        // Not asked for, the boot plan for a plain `run` (another start layout) is only a note.
        #expect(ok.err == "skeletond cache: no boot plan: `run` starts with layout default, this cache command with still\n", "\(ok.err)")
        let run = ["run", "--config", directory + "/s.json", "--layout", "still", "--frame-cache", directory + "/cache"]
        let planned = try runTool(skeletond, ["cache", "--config", directory + "/s.json", "--layouts", layouts, "--layout", "still",
                                              "--size", "200x100", "--frame-cache", directory + "/cache", "--"] + run)
        // (Named by skeletond's build id: `BootPlanTests` checks the name.)
        let plan = String(planned.out.split(separator: "\n").last ?? "")
        #expect(planned.status == 0 && plan.hasPrefix(directory + "/cache/") && plan.hasSuffix(".boot") && planned.err.isEmpty,
                "\(planned.out) \(planned.err)")
        #expect(FileManager.default.contents(atPath: plan)?.prefix(8) == Data("SKBOOT03".utf8))
        let refused = try runTool(skeletond, ["cache", "--config", directory + "/s.json", "--layouts", layouts, "--layout", "still",
                                              "--size", "200x100", "--frame-cache", directory + "/cache", "--", "run", "--frame-cache"])
        #expect(refused.status == 1 && refused.err.contains("no boot plan: `run --frame-cache` is not a command line"), "\(refused.err)")
        let d = try DaemonProcess(layouts: ["still": DaemonProcessTests.staticLayout], startLayout: "still", frameCache: directory + "/cache")
        #expect(d.logContains("first frame on memory"))
        #expect(d.log.contains("from the frame cache)"), "the daemon finds what `skeletond cache` wrote: \(d.log)")
        let missing = try runTool(skeletond, ["cache", "--config", directory + "/s.json", "--layouts", layouts, "--layout", "gone",
                                              "--size", "200x100", "--frame-cache", directory + "/cache"])
        #expect(missing.status == 1)
        #expect(missing.err.contains("skeletond cache: start layout \"gone\": no layout named \"gone\""), "\(missing.err)")
        // Sizes of the displays there are: none at a device that is not there.
        try #"{"display": {"device": "/nonexistent/card0"}}"#.write(toFile: directory + "/gone.json", atomically: true, encoding: .utf8)
        let noDisplay = try runTool(skeletond, ["cache", "--config", directory + "/gone.json", "--layouts", layouts, "--layout", "still",
                                                "--size", "auto", "--frame-cache", directory + "/cache"])
        #expect(noDisplay.status == 1 && noDisplay.err == "skeletond cache: --size auto: no DRM display with a connected output at /nonexistent/card0\n",
                "\(noDisplay.err)")
        let noSize = try runTool(skeletond, ["cache", "--config", directory + "/s.json"])
        #expect(noSize.status == 64 && noSize.err.contains("--size"), "\(noSize.err)")
    }

    /// skeletond-cache.service's last step: a change made while the run went on (the path units
    /// let it pass) leaves the mark that has skeletond-initramfs.path start the run again.
    @Test func aChangeDuringACacheRunLeavesTheMarkForAnotherRun() throws {
        defer { removeDirectory() }
        let layouts = directory + "/layouts"
        try FileManager.default.createDirectory(atPath: layouts, withIntermediateDirectories: true)
        try DaemonProcessTests.staticLayout.write(toFile: layouts + "/still.json", atomically: true, encoding: .utf8)
        try "{}".write(toFile: directory + "/s.json", atomically: true, encoding: .utf8)
        let skeletond = builtExecutable("skeletond")
        let common = ["--config", directory + "/s.json", "--layouts", layouts, "--frame-cache", directory + "/cache"]
        let mark = directory + "/cache/" + FrameCache.initramfsOutdatedMark
        func check() throws -> (status: Int32, out: String, marked: Bool) {
            let r = try runTool(skeletond, ["cache", "--check-unchanged"] + common)
            let marked = FileManager.default.fileExists(atPath: mark)
            try? FileManager.default.removeItem(atPath: mark)
            return (r.status, r.out, marked)
        }
        // No run wrote a fingerprint yet: nothing to compare.
        let before = try check()
        #expect(before.status == 0 && before.out.isEmpty && !before.marked, "\(before)")

        let cached = try runTool(skeletond, ["cache", "--layout", "still", "--size", "64x48"] + common)
        #expect(cached.status == 0, "\(cached.err)")
        let fingerprint = try #require(FileManager.default.contents(atPath: directory + "/cache/" + CacheInputs.fileName))
        #expect(fingerprint.count == 16 && fingerprint.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) },
                "\(String(decoding: fingerprint, as: UTF8.self))")
        let unchanged = try check()
        #expect(unchanged.status == 0 && unchanged.out.isEmpty && !unchanged.marked, "\(unchanged)")
        // An editor's swap file is no change.
        try "x".write(toFile: layouts + "/.still.json.swp", atomically: false, encoding: .utf8)
        #expect(try check().marked == false)

        let changes: [(String, () throws -> Void)] = [
            ("a layout edited", { try DaemonProcessTests.staticLayout.replacingOccurrences(of: "}", with: " }")
                .write(toFile: layouts + "/still.json", atomically: true, encoding: .utf8) }),
            ("a layout added", { try "{}".write(toFile: layouts + "/other.json", atomically: true, encoding: .utf8) }),
            ("a layout renamed", { try FileManager.default.moveItem(atPath: layouts + "/other.json", toPath: layouts + "/third.json") }),
            ("a layout removed", { try FileManager.default.removeItem(atPath: layouts + "/third.json") }),
            ("the settings edited", { try #"{"display": {"maxFps": 30}}"#.write(toFile: directory + "/s.json", atomically: true, encoding: .utf8) }),
        ]
        for (change, make) in changes {
            try make()
            let seen = try check()
            #expect(seen.status == 0 && seen.marked, "\(change): \(seen)")
            #expect(seen.out == "skeletond cache: the settings, a layout or the executable changed while the next boot was prepared; \(mark) has it prepared again\n",
                    "\(change): \(seen.out)")
            // The run the mark starts takes the change: then nothing is left to see.
            let again = try runTool(skeletond, ["cache", "--layout", "still", "--size", "64x48"] + common)
            #expect(again.status == 0, "\(change): \(again.err)")
            #expect(try check().marked == false, "\(change): seen again after the run that took it")
        }
        // Settings that no longer read are a change too; the error is printed.
        try "{".write(toFile: directory + "/s.json", atomically: true, encoding: .utf8)
        let broken = try runTool(skeletond, ["cache", "--check-unchanged", "--config", directory + "/s.json", "--layouts", layouts,
                                             "--frame-cache", directory + "/cache"])
        #expect(broken.status == 0 && FileManager.default.fileExists(atPath: mark) && broken.err.contains("s.json"), "\(broken.err)")
        let mixed = try runTool(skeletond, ["cache", "--check-unchanged", "--size", "64x48"] + common)
        #expect(mixed.status == 64 && mixed.err.contains("--check-unchanged takes no --size and no command line"), "\(mixed.err)")
    }
}
