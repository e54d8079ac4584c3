#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import SkeletonSystem
import Testing

/// What the directory's fsync adds to the writes a boot makes when it missed its entry: a
/// 1920x1080 frame cache entry and a boot record, written as before (temporary file, fsync,
/// rename) and as now (the directory synced after). Printed for docs/performance.md; the files
/// must read back whole either way.
struct DirectorySyncCostTests {
    static let rounds = 15

    /// The write as it was before the directory's fsync.
    func writeWithoutDirectorySync(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".before.tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        try #require(bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) } == bytes.count)
        try #require(fsync(fd) == 0)
        close(fd)
        try #require(rename(temporary, path) == 0)
    }

    @Test func theDirectorysSyncOnTheBootsWrites() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dir-sync-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let entry = FrameCache.header(width: 1920, height: 1080) + [UInt8](repeating: 0x5A, count: 1920 * 1080 * 4)
        let record = [UInt8](repeating: 0x42, count: 400)
        let files = [(directory + "/entry.frame", entry), (directory + "/record.boot", record)]

        var before: [Double] = [], after: [Double] = []
        for round in 0..<Self.rounds {
            for syncingDirectory in round % 2 == 0 ? [false, true] : [true, false] {
                let start = Date()
                for (path, bytes) in files {
                    if syncingDirectory {
                        try bytes.withUnsafeBytes { raw in try SystemCalls.writeFileAtomically(path, [raw]) }
                    } else {
                        try writeWithoutDirectorySync(path, bytes)
                    }
                }
                let seconds = Date().timeIntervalSince(start)
                if syncingDirectory { after.append(seconds) } else { before.append(seconds) }
                for (path, bytes) in files { #expect(FileManager.default.contents(atPath: path) == Data(bytes)) }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["entry.frame", "record.boot"])
        let median = { (times: [Double]) in times.sorted()[times.count / 2] * 1000 }
        print(String(format: "directory sync: a 1920x1080 entry and a boot record, median of %d: %.2f ms without the directory's fsync, %.2f ms with it (%.2fx)",
                     Self.rounds, median(before), median(after), median(after) / median(before)))
    }
}
