#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import Testing

/// Nothing torn: the writers of what the next start reads (`skeletond cache`'s frame cache
/// entries, boot plan and fingerprint; `cache --check-unchanged`'s mark) are killed with SIGKILL
/// at random moments, and every file left is absent, the old version or the whole new one.
@Suite(.serialized)
struct TornWriteTests {
    static let runs = 40
    static let markText = Array("the settings, a layout or the executable changed while the next boot was prepared\n".utf8)

    /// The pid in a temporary file's name (`.NAME.PID.tmp`), nil for any other name.
    static func temporaryOwner(_ name: String) -> Int32? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        return name.dropLast(4).split(separator: ".").last.flatMap { Int32($0) }
    }

    @Test func aKilledWriterLeavesTheOldFileOrTheWholeNewOne() throws {
        let scene = try CacheWriterScene(name: "torn", sizes: ["1920x1080", "200x100"])
        defer { scene.remove() }
        // Each version's files, from whole runs: a name holds one of these contents or is absent.
        var allowed: [String: Set<[UInt8]>] = [FrameCache.initramfsOutdatedMark: [Self.markText]]
        var smallEntries: [String] = []
        for version in 0..<2 {
            try scene.useLayout(version: version)
            try #require(try scene.run(scene.cacheArguments, killAfter: 60).status == 0)
            let files = try scene.files()
            for (name, bytes) in files { allowed[name, default: []].insert(bytes) }
            smallEntries += files.keys.filter { $0.hasSuffix("-200x100.frame") }
        }
        try #require(smallEntries.count == 2)
        #expect(allowed[CacheInputs.fileName]?.count == 2 && allowed.keys.filter { $0.hasSuffix(".boot") }.count == 1,
                "\(allowed.keys.sorted())")
        let writing = try scene.duration(of: scene.cacheArguments)
        let checking = try scene.duration(of: scene.checkArguments)
        print("torn writes: a whole `skeletond cache` run takes (median) \(Int(writing * 1000)) ms, `cache --check-unchanged` \(Int(checking * 1000)) ms")

        var killed: Set<Int32> = []
        var completed = 0, killedMidWrite = 0, torn = 0
        for run in 0..<Self.runs {
            try scene.useLayout(version: run % 2)
            try? FileManager.default.removeItem(atPath: scene.mark)
            let check = try scene.run(scene.checkArguments, killAfter: Double.random(in: 0...checking))
            if check.status == nil { killed.insert(check.pid) }
            let temporariesBefore = try scene.files().keys.filter { Self.temporaryOwner($0) != nil }.count
            let cache = try scene.run(scene.cacheArguments, killAfter: Double.random(in: 0...writing))
            if cache.status == nil { killed.insert(cache.pid) } else { completed += 1 }

            let files = try scene.files()
            var owners: [Int32] = []
            for (name, bytes) in files {
                if let owner = Self.temporaryOwner(name) {
                    owners.append(owner)
                    #expect(killed.contains(owner), "run \(run): \(name) belongs to no killed writer")
                } else if let versions = allowed[name] {
                    if !versions.contains(bytes) { torn += 1 }
                    #expect(versions.contains(bytes), "run \(run): \(name) is torn (\(bytes.count) bytes)")
                    if name.hasSuffix(".frame") { #expect(FrameCache.openEntry(scene.cache + "/" + name) != nil, "run \(run): \(name)") }
                    if name.hasSuffix(".boot") { #expect(bytes.withUnsafeBytes { BootRecordView($0, checkingStart: false) } != nil, "run \(run)") }
                } else {
                    Issue.record("run \(run): \(name) (\(bytes.count) bytes) is no file of either version")
                }
            }
            #expect(Set(owners).count == owners.count, "run \(run): more than one temporary file of one writer: \(files.keys.sorted())")
            if owners.count > temporariesBefore { killedMidWrite += 1 }
        }
        print("torn writes: \(Self.runs) runs killed after 0 to \(Int(writing * 1000)) ms: \(completed) ended first, "
              + "\(killedMidWrite) killed between a temporary file's creation and its rename, \(torn) files torn")

        // The next start draws: from the entry when the last run wrote it, else from the layout.
        let version = (Self.runs - 1) % 2
        let entryWritten = FileManager.default.fileExists(atPath: scene.cache + "/" + smallEntries[version])
        let daemon = try DaemonProcess(layouts: ["still": CacheWriterScene.layout(version: version)], startLayout: "still",
                                       frameCache: scene.cache)
        #expect(daemon.logContains("first frame on memory"), "\(daemon.log)")
        #expect(daemon.logContains(entryWritten ? "from the frame cache)" : "frame cache: wrote"), "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }
}
