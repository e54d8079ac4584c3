import Foundation
import SkeletonPicture
import SkeletonRender
import Testing

/// `skeletond run --backend wayland` against a real weston: the daemon's frame is the one
/// `skeletond render` makes, `status` names the compositor, and when the compositor goes away
/// the daemon exits or goes on with `auto`, as `display.wayland.whenGone` says.
@Suite(.serialized) struct WaylandDaemonTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func built(_ name: String) -> String { packageRoot.appendingPathComponent(".build/debug/\(name)").path }

    static let stillLayout = """
    {"name": "still", "canvas": {"width": 640, "height": 400, "background": "#FFFFFF"},
     "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
     "root": {"kind": "view", "children": [
       {"kind": "image", "frame": [20, 20, 120, 120], "cornerRadius": 12},
       {"kind": "text", "frame": [160, 30, 400, 80], "lines": 3}]}}
    """

    /// A daemon on weston's socket, its stderr in a file.
    final class Daemon: @unchecked Sendable {
        let process = Process()
        let directory: URL
        let socket: String
        let layouts: URL
        private let logFile: URL

        init(weston: Weston, settings: String = "{}") throws {
            directory = weston.runtimeDirectory.appendingPathComponent("daemon")
            layouts = directory.appendingPathComponent("layouts")
            try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
            try WaylandDaemonTests.stillLayout.write(to: layouts.appendingPathComponent("still.json"), atomically: true, encoding: .utf8)
            let settingsFile = directory.appendingPathComponent("skeletond.json")
            try settings.write(to: settingsFile, atomically: true, encoding: .utf8)
            socket = directory.appendingPathComponent("control.sock").path
            logFile = directory.appendingPathComponent("stderr.log")
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: WaylandDaemonTests.built("skeletond"))
            process.arguments = ["run", "--config", settingsFile.path, "--socket", socket, "--layouts", layouts.path,
                                 "--layout", "still", "--frame-cache", "none", "--backend", "wayland", "--size", "640x400",
                                 "--display-wait", "0", "--log-level", "debug"]
            process.environment = weston.environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: logFile)
            try process.run()
        }

        deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }

        var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

        /// `skeletonctl status --json`, parsed.
        func status() -> [String: Any]? {
            let ctl = Process()
            ctl.executableURL = URL(fileURLWithPath: WaylandDaemonTests.built("skeletonctl"))
            ctl.arguments = ["status", "--json"]
            ctl.environment = ["SKELETOND_SOCKET": socket]
            let out = Pipe()
            ctl.standardOutput = out
            ctl.standardError = FileHandle.nullDevice
            guard (try? ctl.run()) != nil else { return nil }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            ctl.waitUntilExit()
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }

        var firstOutput: [String: Any]? { (status()?["outputs"] as? [[String: Any]])?.first }

        /// Polls `status` until `condition` holds, at most `seconds`.
        func waitFor(seconds: Double = 20, _ condition: (Daemon) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition(self) {
                guard Date() < deadline, process.isRunning else { return false }
                usleep(20_000)
            }
            return true
        }

        func waitForExit(seconds: Double = 20) -> Int32? {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning {
                guard Date() < deadline else { return nil }
                usleep(20_000)
            }
            return process.terminationStatus
        }
    }

    /// What `skeletond render` makes of the layout at 640x400.
    static func rendered(in directory: URL) throws -> PixelBuffer {
        let out = directory.appendingPathComponent("expected.png")
        let render = Process()
        render.executableURL = URL(fileURLWithPath: built("skeletond"))
        render.arguments = ["render", directory.appendingPathComponent("layouts/still.json").path, "--size", "640x400", "--out", out.path]
        try render.run()
        render.waitUntilExit()
        return try ImageFile.readPNG(out.path)
    }

    @Test func theDaemonsFrameOnWeston() throws {
        let weston = try Weston()
        let daemon = try Daemon(weston: weston)
        #expect(daemon.waitFor { ($0.firstOutput?["framesPresented"] as? Int ?? 0) >= 1 }, "\(daemon.log)")
        let status = try #require(daemon.status())
        #expect(status["backend"] as? String == "wayland")
        let output = try #require(daemon.firstOutput)
        #expect(output["size"] as? String == "640x400")
        #expect((output["compositor"] as? String)?.hasPrefix("weston (pid \(weston.process.processIdentifier))") == true, "\(output)")
        #expect(output["device"] as? String == weston.socketName)
        #expect(daemon.log.contains("wayland: a fullscreen window of weston"), "\(daemon.log)")
        let expected = try Self.rendered(in: daemon.directory)
        let shown = try weston.screenshot()
        #expect(firstDifference(shown.canvas, expected.canvas) == nil, "\(firstDifference(shown.canvas, expected.canvas) ?? "")")

        weston.stop()
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(daemon.log.contains("went away"), "\(daemon.log)")
        #expect(daemon.log.contains("exiting: the display server went away (display.wayland.whenGone: exit)"), "\(daemon.log)")
    }

    /// `whenGone: auto`: the skeleton goes on with the auto backend (memory here, with no card).
    @Test func whenGoneAutoGoesOn() throws {
        let weston = try Weston()
        let daemon = try Daemon(weston: weston, settings: #"{"display": {"wayland": {"whenGone": "auto"}}}"#)
        #expect(daemon.waitFor { ($0.firstOutput?["framesPresented"] as? Int ?? 0) >= 1 }, "\(daemon.log)")
        weston.stop()
        #expect(daemon.waitFor { $0.status()?["backend"] as? String == "memory" }, "\(daemon.log)")
        #expect(daemon.log.contains("going on with the auto backend (display.wayland.whenGone: auto)"), "\(daemon.log)")
        #expect(daemon.process.isRunning)
    }

    /// Started before its compositor: the window opens when the socket appears.
    @Test func aCompositorThatComesLaterIsWaitedFor() throws {
        let weston = try Weston()
        let early = try Daemon(weston: weston, settings: #"{"display": {"wayland": {"socket": "wayland-later"}}}"#)
        #expect(early.waitFor { $0.status()?["backend"] as? String == "none" }, "\(early.log)")
        let link = weston.runtimeDirectory.appendingPathComponent("wayland-later")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: weston.runtimeDirectory.appendingPathComponent(weston.socketName))
        #expect(early.waitFor { $0.status()?["backend"] as? String == "wayland" }, "\(early.log)")
    }

    @Test func aBadWhenGoneIsSaidWithItsPath() throws {
        let weston = try Weston()
        let daemon = try Daemon(weston: weston, settings: #"{"display": {"wayland": {"whenGone": "stay"}}}"#)
        #expect(daemon.waitForExit() != 0)
        #expect(daemon.log.contains("display.wayland.whenGone"), "\(daemon.log)")
        #expect(daemon.log.contains("\"stay\""), "\(daemon.log)")
    }
}
