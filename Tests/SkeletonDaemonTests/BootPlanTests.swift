#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import SkeletonBoot
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import Testing

/// The boot plan `skeletond cache` writes for an image's first boot: named as the record of the
/// image's `run` command line will be, holding that start's paths, read in place at boot.
struct BootPlanTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("boot-plan-\(UUID().uuidString.prefix(8))").path

    init() throws {
        try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
        try TestLayouts.simpleText.write(toFile: directory + "/layouts/solid.json", atomically: true, encoding: .utf8)
    }

    func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }

    func bootLocation(_ arguments: [String]) -> BootRecord.Location? {
        let strings = arguments.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        return strings.withUnsafeBufferPointer { BootRecord.location(arguments: $0) }
    }

    /// The cache command's settings: `settingsFile`'s, with its flags for the host's directories.
    func hostSettings(_ settingsFile: String) throws -> Settings {
        var flags = RunFlags()
        flags.config = settingsFile
        flags.layouts = directory + "/layouts"
        flags.layout = "solid"
        flags.frameCache = directory + "/cache"
        return try flags.settingsSource.load().get()
    }

    @Test func theNameIsTheOneTheBootPathLooksFor() throws {
        defer { removeDirectory() }
        let settings = directory + "/settings.json"
        try "{\"logLevel\": \"debug\"}".write(toFile: settings, atomically: true, encoding: .utf8)
        let run = ["run", "--config", settings, "--layout", "solid", "--frame-cache", "/var/cache/skeletond"]
        let atBoot = try #require(bootLocation(run))
        #expect(BootRecord.location(runArguments: run, settings: Array("{\"logLevel\": \"debug\"}".utf8)) == atBoot)
        // Other settings bytes, no settings file, other arguments: other names.
        let others = [BootRecord.location(runArguments: run, settings: Array("{}".utf8)),
                      BootRecord.location(runArguments: run, settings: nil),
                      BootRecord.location(runArguments: run + ["--max-fps", "30"], settings: Array("{\"logLevel\": \"debug\"}".utf8))]
        #expect(Set(others.compactMap { $0?.path } + [atBoot.path]).count == 4)
        let missing = ["run", "--config", settings + ".missing"]
        #expect(BootRecord.location(runArguments: missing, settings: nil) == bootLocation(missing))
    }

    @Test func aPlanHoldsTheImagesPathsAndIsReadInPlace() throws {
        defer { removeDirectory() }
        let settingsText = "{\"display\": {\"outputs\": [\"HDMI-A-1\", \"DP-2\"], \"modes\": {\"DP-2\": \"1280x720\"}}}"
        let settingsFile = directory + "/settings.json"
        try settingsText.write(toFile: settingsFile, atomically: true, encoding: .utf8)
        let host = try hostSettings(settingsFile)
        let sizes = [Size(width: 1024, height: 768), Size(width: 1280, height: 720)]
        let frames = try FrameCache.prepare(settings: host, sizes: sizes).get()
        // The image's layouts are where the host's are, so that the plan's layout check can pass here.
        let run = ["run", "--config", "/etc/skeletond.json", "--layouts", directory + "/layouts", "--layout", "solid",
                   "--socket", "/run/sk/control.sock", "--frame-cache", "/srv/image/cache"]
        let path = try BootRecord.preparePlan(settings: host, settingsPath: settingsFile, runArguments: run, sizes: sizes).get()

        // Named as the image's start will look for it, written beside the frames here.
        let target = try #require(BootRecord.location(runArguments: run, settings: Array(settingsText.utf8)))
        #expect(target.directory == "/srv/image/cache")
        #expect(path == directory + "/cache/" + target.path.split(separator: "/").last!)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(bytes.prefix(8)) == Array("SKBOOT03".utf8))
        #expect(String(decoding: bytes, as: UTF8.self).contains("/run/sk/control.sock.hidden"))

        bytes.withUnsafeBytes { raw in
            guard let view = BootRecordView(raw) else {
                Issue.record("the plan does not read back")
                return
            }
            #expect(view.device == nil)
            #expect(view.screens == nil, "a plan has no outputs to replay")
            #expect(view.accepts("HDMI-A-1") && view.accepts("DP-2") && !view.accepts("HDMI-A-2") && !view.accepts("DP"))
            #expect(view.wantedSize("DP-2") == Size(width: 1280, height: 720))
            #expect(view.wantedSize("HDMI-A-1") == nil)
            // The image's entries: the host's file names in the image's cache directory.
            for (size, written) in zip(sizes, frames) {
                #expect(view.framePath(for: size) == "/srv/image/cache/" + written.split(separator: "/").last!)
            }
            #expect(view.framePath(for: Size(width: 800, height: 600)) == nil)
        }

        // Hidden, or the layout edited since: the plan does not apply.
        try "{\"name\": \"other\"}".write(toFile: directory + "/layouts/solid.json", atomically: true, encoding: .utf8)
        #expect(bytes.withUnsafeBytes { BootRecordView($0) } == nil)
    }

    /// `skeletond cache` run again (skeletond-initramfs.path, a kernel update) keeps what a boot
    /// confirmed for the same layout, the framebuffer included; a changed layout gets a plan.
    @Test func aConfirmedRecordOfTheSameLayoutIsKept() throws {
        defer { removeDirectory() }
        let settingsFile = directory + "/settings.json"
        try "{}".write(toFile: settingsFile, atomically: true, encoding: .utf8)
        let host = try hostSettings(settingsFile)
        let sizes = [Size(width: 1024, height: 768)]
        _ = try FrameCache.prepare(settings: host, sizes: sizes).get()
        let run = ["run", "--layouts", directory + "/layouts", "--layout", "solid", "--frame-cache", directory + "/cache"]
        let path = try BootRecord.preparePlan(settings: host, settingsPath: settingsFile, runArguments: run, sizes: sizes).get()
        let plan = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(plan.withUnsafeBytes { BootRecordView($0)?.isConfirmed } == false)

        // What a start on efifb, then bochs, wrote at its hide (the skeleton hidden: the mark set).
        var record = BootRecord(hiddenMarkPath: directory + "/hidden", layoutPath: directory + "/layouts/solid.json",
                                layoutHash: BootRecord.layoutHash(Array(TestLayouts.simpleText.utf8)), devicePath: nil, connectors: nil,
                                modes: [:], frames: [], confirmed: nil,
                                framebuffer: BootRecord.Framebuffer(path: "/dev/fb0", id: "EFI VGA", size: sizes[0], framePath: "x"))
        _ = FileManager.default.createFile(atPath: directory + "/hidden", contents: FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id"))
        try Data(record.encoded).write(to: URL(fileURLWithPath: path))
        #expect(try BootRecord.preparePlan(settings: host, settingsPath: settingsFile, runArguments: run, sizes: sizes).get() == path)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == record.encoded, "the record was replaced")

        // Written for another layout: replaced by the plan.
        record.layoutHash &+= 1
        try Data(record.encoded).write(to: URL(fileURLWithPath: path))
        _ = try BootRecord.preparePlan(settings: host, settingsPath: settingsFile, runArguments: run, sizes: sizes).get()
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == plan)
    }

    @Test func everyConnectedOutputOnTheNamedDevice() throws {
        defer { removeDirectory() }
        let plan = BootRecord(hiddenMarkPath: directory + "/hidden", layoutPath: nil, layoutHash: 1, devicePath: "/dev/dri/card3",
                              connectors: nil, modes: [:], frames: [.init(size: Size(width: 640, height: 480), path: "/c/a.frame")])
        let bytes = plan.encoded
        bytes.withUnsafeBytes { raw in
            let view = BootRecordView(raw)
            #expect(view?.device == "/dev/dri/card3")
            #expect(view?.accepts("Virtual-1") == true)
            #expect(view?.framePath(for: Size(width: 640, height: 480)) == "/c/a.frame")
        }
        _ = FileManager.default.createFile(atPath: directory + "/hidden", contents: FileManager.default.contents(atPath: "/proc/sys/kernel/random/boot_id"))
        #expect(bytes.withUnsafeBytes { BootRecordView($0) } == nil)
        for broken in [Array(bytes.dropLast()), bytes + [0], Array("SKPLAN01".utf8) + bytes.dropFirst(8)] {
            #expect(broken.withUnsafeBytes { BootRecordView($0) } == nil)
        }
    }

    @Test func noPlanForACommandLineTheFramesDoNotServe() throws {
        defer { removeDirectory() }
        let settingsFile = directory + "/settings.json"
        try "{\"frameCache\": \"/elsewhere\"}".write(toFile: settingsFile, atomically: true, encoding: .utf8)
        let host = try hostSettings(settingsFile)
        let sizes = [Size(width: 320, height: 200)]
        _ = try FrameCache.prepare(settings: host, sizes: sizes).get()
        func problem(_ run: [String]) -> String? {
            guard case .failure(let error) = BootRecord.preparePlan(settings: host, settingsPath: settingsFile, runArguments: run, sizes: sizes) else {
                return nil
            }
            return error.description
        }
        let cache = ["--frame-cache", "/var/cache/skeletond"]
        #expect(problem(["run", "--layout", "solid"] + cache) == nil)
        #expect(problem(["run", "--layout", "other"] + cache) == "`run --layout other --frame-cache /var/cache/skeletond` starts with layout other, this cache command with solid")
        #expect(problem(["run", "--layout", "solid", "--backend", "memory"] + cache)?.hasSuffix("does not use DRM") == true)
        #expect(problem(["render", "x.json"])?.hasSuffix("is not a command line the daemon starts from directly (run, then --name value flags)") == true)
        #expect(problem(["run", "--layout", "solid", "--max-fps", "0"] + cache) != nil)
        // The settings keep the frames in /elsewhere, but a start looks for its record in the default directory.
        #expect(problem(["run", "--layout", "solid"])?.contains("keeps its frame cache elsewhere than where it looks for its boot record") == true)
        #expect(problem(["run", "--layout", "solid", "--frame-cache", "none"]) == "`run --layout solid --frame-cache none` has the frame cache off")
    }
}
