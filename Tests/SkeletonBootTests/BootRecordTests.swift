#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import Testing

/// The boot record: where a start looks for it (before anything is parsed), its file format,
/// and every check that sends a start the usual way instead of replaying a stale record.
struct BootRecordTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("boot-record-\(UUID().uuidString.prefix(8))").path

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }

    /// `BootRecord.location` for these arguments (argv without the program name), as C strings.
    func location(_ arguments: [String]) -> BootRecord.Location? {
        let strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        return strings.withUnsafeBufferPointer { BootRecord.location(arguments: $0) }
    }

    /// A drmModeModeInfo's bytes with only its size set (hdisplay at 4, vdisplay at 14).
    func modeBytes(width: UInt16, height: UInt16) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: BootScreen.modeByteCount)
        bytes[4] = UInt8(width & 0xFF); bytes[5] = UInt8(width >> 8)
        bytes[14] = UInt8(height & 0xFF); bytes[15] = UInt8(height >> 8)
        return bytes
    }

    @Test func onlyRunLooksForARecordAndItsNameFollowsArgumentsAndSettings() throws {
        defer { removeDirectory() }
        let settings = directory + "/settings.json"
        try "{}".write(toFile: settings, atomically: true, encoding: .utf8)
        let cache = directory + "/cache"
        #expect(location(["render", "x.json"]) == nil)
        #expect(location([]) == nil)
        #expect(location(["run", "--frame-cache", "none"]) == nil)
        #expect(location(["run", "--frame-cache=relative/dir"]) == nil)
        #expect(location(["run"])?.directory == BootDefaults.frameCacheDirectory)

        let base = try #require(location(["run", "--config", settings, "--frame-cache", cache]))
        #expect(base.directory == cache)
        let name = base.path.dropFirst(cache.count + 1)
        #expect(base.path.hasPrefix(cache + "/") && name.count == 21 && name.hasSuffix(".boot")
                && name.dropLast(5).allSatisfy { "0123456789abcdef".contains($0) }, "\(base.path)")
        #expect(location(["run", "--config", settings, "--frame-cache", cache]) == base)
        #expect(location(["run", "--config=\(settings)", "--frame-cache=\(cache)"])?.directory == cache)
        // Other arguments, or other settings bytes: another record.
        let others = [
            location(["run", "--config", settings, "--frame-cache", cache, "--layout", "other"]),
            location(["run", "--config", settings + ".missing", "--frame-cache", cache]),
        ]
        try "{\"logLevel\": \"debug\"}".write(toFile: settings, atomically: true, encoding: .utf8)
        let edited = location(["run", "--config", settings, "--frame-cache", cache])
        #expect(Set((others + [edited]).compactMap { $0?.path } + [base.path]).count == 4)
        // A settings file there but not readable whole names no record (it is not "no file").
        try String(repeating: " ", count: 70_000).write(toFile: settings, atomically: true, encoding: .utf8)
        #expect(location(["run", "--config", settings, "--frame-cache", cache]) == nil)
    }

    /// A record of one 7x3 output whose layout and frame entry are on disk.
    func writeRecordAndFiles(layoutText: String = "{\"name\": \"x\"}") throws -> BootRecord {
        let layout = directory + "/x.json"
        try layoutText.write(toFile: layout, atomically: true, encoding: .utf8)
        let cache = try #require(FrameCache(directory: directory))
        let frame = PixelBuffer(width: 7, height: 3, fill: 0x123456)
        try cache.store(directory + "/x-7x3.frame", from: frame.canvas)
        let hash = BootRecord.layoutHash(Array(layoutText.utf8))
        let output = BootRecord.Output(connectorID: 31, crtcID: 35, modeIsPreferred: true, modeBytes: modeBytes(width: 7, height: 3),
                                       framePath: directory + "/x-7x3.frame")
        return BootRecord(hiddenMarkPath: directory + "/hidden", layoutPath: layout, layoutHash: hash, devicePath: nil, connectors: nil,
                          modes: [:], frames: [BootRecord.Frame(size: Size(width: 7, height: 3), path: directory + "/x-7x3.frame")],
                          confirmed: BootRecord.Confirmed(devicePath: "/dev/dri/card7", outputs: [output]))
    }

    func screens(_ record: BootRecord) -> (device: String, screens: BootScreen)? {
        record.encoded.withUnsafeBytes { BootRecordView($0)?.screens }
    }

    @Test func aRecordWhoseFilesAreAsTheyWereNamesItsDeviceAndOutputs() throws {
        defer { removeDirectory() }
        let record = try writeRecordAndFiles()
        let bytes = record.encoded
        #expect(Array(bytes.prefix(8)) == Array("SKBOOT03".utf8))
        let found = try #require(screens(record))
        #expect(found.device == "/dev/dri/card7")
        #expect(found.screens.size == Size(width: 7, height: 3))
        #expect(found.screens.next == nil)

        var two = record
        two.confirmed?.outputs.append(BootRecord.Output(connectorID: 40, crtcID: 41, modeIsPreferred: false,
                                                        modeBytes: modeBytes(width: 7, height: 3), framePath: directory + "/x-7x3.frame"))
        let both = try #require(screens(two))
        #expect(both.screens.next != nil && both.screens.next?.next == nil)
    }

    @Test func anythingChangedSendsTheStartTheUsualWay() throws {
        defer { removeDirectory() }
        let record = try writeRecordAndFiles()
        #expect(screens(record) != nil)

        // The skeleton was hidden before this start (a restart after the app took over), in
        // this boot; a mark from another boot does not count.
        _ = FileManager.default.createFile(atPath: record.hiddenMarkPath, contents: Data("another boot\n".utf8))
        #expect(screens(record) != nil)
        _ = FileManager.default.createFile(atPath: record.hiddenMarkPath, contents: FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id"))
        #expect(screens(record) == nil)
        try FileManager.default.removeItem(atPath: record.hiddenMarkPath)

        // The layout was edited.
        try "{\"name\": \"y\"}".write(toFile: record.layoutPath!, atomically: true, encoding: .utf8)
        #expect(screens(record) == nil)
        _ = try writeRecordAndFiles()

        // The frame entry is gone, damaged, or of another size than the mode.
        var missing = record
        missing.confirmed?.outputs[0].framePath += ".gone"
        #expect(screens(missing) == nil)
        var otherSize = record
        otherSize.confirmed?.outputs[0].modeBytes = modeBytes(width: 8, height: 3)
        #expect(screens(otherSize) == nil)
        let entryPath = directory + "/x-7x3.frame"
        let entry = try Data(contentsOf: URL(fileURLWithPath: entryPath))
        try entry.dropLast(4).write(to: URL(fileURLWithPath: entryPath))
        #expect(screens(record) == nil)
        _ = try writeRecordAndFiles()

        // A mode of another libdrm's size, or a plan (nothing confirmed): no outputs to replay.
        var badMode = record
        badMode.confirmed?.outputs[0].modeBytes.removeLast()
        #expect(screens(badMode) == nil)
        var plan = record
        plan.confirmed = nil
        #expect(screens(plan) == nil)
        #expect(plan.encoded.withUnsafeBytes { BootRecordView($0) } != nil)
        // A truncated or extended file, the old format's magic, nothing: no record at all.
        let bytes = record.encoded
        for broken in [Array(bytes.dropLast()), bytes + [0], Array("SKBOOT02".utf8) + bytes.dropFirst(8), []] {
            #expect(broken.withUnsafeBytes { BootRecordView($0) } == nil)
        }
        #expect(screens(record) != nil)
    }

    @Test func aRecordNamesTheFramebufferItWasShownOnAndIsShownThereOnlyAsItWas() throws {
        defer { removeDirectory() }
        var record = try writeRecordAndFiles()
        #expect(record.encoded.withUnsafeBytes { BootRecordView($0)?.framebuffer } == nil)
        // Not a framebuffer: a file the boot path must leave as it is.
        let notAFramebuffer = directory + "/fb0"
        let untouched = Data(repeating: 0xA5, count: 7 * 3 * 4)
        try untouched.write(to: URL(fileURLWithPath: notAFramebuffer))
        record.framebuffer = BootRecord.Framebuffer(path: notAFramebuffer, id: "EFI VGA", size: Size(width: 7, height: 3),
                                                    framePath: directory + "/x-7x3.frame")
        let bytes = record.encoded
        let read = try #require(bytes.withUnsafeBytes { BootRecordView($0)?.framebuffer })
        #expect(read.path == notAFramebuffer && read.size == Size(width: 7, height: 3))
        #expect(bytes.withUnsafeBytes { BootRecordView($0)?.showOnFramebuffer() } == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notAFramebuffer)) == untouched)
        // Its frame entry gone, or of another size: not shown either; the record still reads.
        var otherSize = record
        otherSize.framebuffer?.size = Size(width: 8, height: 3)
        var gone = record
        gone.framebuffer?.framePath += ".gone"
        for changed in [otherSize, gone] {
            #expect(changed.encoded.withUnsafeBytes { BootRecordView($0)?.showOnFramebuffer() } == nil)
            #expect(changed.encoded.withUnsafeBytes { BootRecordView($0) } != nil)
        }
        // Cut anywhere in the framebuffer's fields: no record at all.
        let withoutFramebuffer = try writeRecordAndFiles().encoded
        for end in withoutFramebuffer.count..<bytes.count {
            #expect(Array(bytes.prefix(end)).withUnsafeBytes { BootRecordView($0) } == nil, "cut at \(end)")
        }
    }

    @Test func writingARecordRemovesTheDirectorysOtherRecords() throws {
        defer { removeDirectory() }
        let record = try writeRecordAndFiles()
        _ = FileManager.default.createFile(atPath: directory + "/0123456789abcdef.boot", contents: Data("old".utf8))
        _ = FileManager.default.createFile(atPath: directory + "/keep.frame.other", contents: Data())
        let place = try #require(location(["run", "--frame-cache", directory]))
        try record.write(to: place)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.filter { $0.hasSuffix(".boot") } == [String(place.path.split(separator: "/").last!)])
        #expect(names.contains("keep.frame.other"))
        let written = try Data(contentsOf: URL(fileURLWithPath: place.path))
        #expect(Array(written) == record.encoded)
    }
}
