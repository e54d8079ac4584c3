import Foundation
import SkeletonBoot
import SkeletonDaemon
import SkeletonSettings
import SkeletonLayout
import Testing

/// A FIFO, a socket or a device where a file is expected must not hang the daemon: files are
/// opened without blocking and read only when they are regular.
@Suite struct HostileFilesTests {
    @Test func aFIFOInTheFrameCacheDoesNotHangTheStart() throws {
        let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-cache-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: cacheDirectory) }
        let cache = try #require(FrameCache(directory: cacheDirectory))
        let entry = cache.path(layoutName: "default", layoutText: Array(TestLayouts.simpleText.utf8), size: Size(width: 200, height: 100))
        #expect(mkfifo(entry, 0o644) == 0)
        let d = try DaemonProcess(frameCache: cacheDirectory)
        let c = try d.connect()
        #expect(c.request(#"{"command": "status"}"#)?["state"] == "showing")
        #expect(d.stop() == 0)
    }

    @Test func aFIFOAsALayoutIsAnErrorThatSaysSo() throws {
        let d = try DaemonProcess()
        #expect(mkfifo(d.layoutsDirectory.appendingPathComponent("pipe.json").path, 0o644) == 0)
        let c = try d.connect()
        let reply = c.request(#"{"command": "show", "layout": "pipe"}"#, seconds: 10)
        #expect(reply?["ok"] == false)
        #expect(reply?["error"]?["message"]?.stringValue?.contains("not a regular file") == true)
    }

    @Test func aFIFOAsTheSettingsFileIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-settings-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(mkfifo(directory + "/settings.json", 0o644) == 0)
        let result = try runTool(builtExecutable("skeletond"), ["run", "--config", directory + "/settings.json", "--socket", directory + "/c.sock",
                                                              "--backend", "memory", "--layout", "none"])
        #expect(result.status == 1)
        #expect(result.err.contains("settings"))
    }
}
