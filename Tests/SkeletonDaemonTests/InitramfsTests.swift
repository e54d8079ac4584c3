import Foundation
import SkeletonBackend
@testable import SkeletonDaemon
import SkeletonDisplay
import SkeletonLayout
import SkeletonLog
import SkeletonProtocol
@testable import SkeletonSettings
import SkeletonSystem
import Testing

/// The daemon started in the initramfs: following the switch to the real root (`new-root`),
/// giving the display back when that root has no skeletond, and waiting for a card whose driver
/// only the real root has.
@Suite struct InitramfsTests {
    static let layouts = ["a": TransitionEndTests.still("a", x: 20)]

    /// A real root at a temporary path, with or without the daemon's executable in it.
    final class FakeRoot {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString.prefix(8))").path
        static let executable = "/usr/bin/skeletond"

        init(withExecutable: Bool) throws {
            try FileManager.default.createDirectory(atPath: path + "/usr/bin", withIntermediateDirectories: true)
            if withExecutable {
                _ = FileManager.default.createFile(atPath: path + Self.executable, contents: Data("#!/bin/sh\n".utf8),
                                               attributes: [.posixPermissions: 0o755])
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A daemon from the initramfs whose chroot is recorded instead of made.
    func initramfsDaemon(roots: Box<[String]>) throws -> SteppedDaemon {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a", initramfs: true, storage: .disk)
        d.daemon.config.rootSwitch.executable = FakeRoot.executable
        d.daemon.config.rootSwitch.changeRoot = { path throws(Errno) in roots.value.append(path) }
        return d
    }

    final class Box<T> {
        var value: T
        init(_ value: T) { self.value = value }
    }

    @Test func newRootMovesTheDaemonIntoTheRealRoot() throws {
        let roots = Box<[String]>([])
        let d = try initramfsDaemon(roots: roots)
        let root = try FakeRoot(withExecutable: true)
        let c = try d.connect()
        let reply = d.request(c, #"{"id": 1, "command": "new-root", "path": "\#(root.path)/"}"#)
        #expect(reply?["ok"] == true, "\(String(describing: reply))")
        #expect(reply?["root"] == .string(root.path + "/"))
        #expect(roots.value == [root.path + "/"])
        #expect(d.daemon.loop.running, "the daemon goes on showing the skeleton")
        #expect(d.logContains("new-root: moved into the real root"))
        #expect(d.request(c, #"{"command": "status"}"#)?["initramfs"] == true)
    }

    /// A real root without skeletond (removed since the initramfs was made): nothing there would
    /// hide the skeleton, so the daemon gives the display back before the switch and stops.
    @Test func aRealRootWithoutTheExecutableGetsTheDisplayBack() throws {
        let roots = Box<[String]>([])
        let d = try initramfsDaemon(roots: roots)
        let root = try FakeRoot(withExecutable: false)
        let c = try d.connect()
        let reply = d.request(c, #"{"command": "new-root", "path": "\#(root.path)"}"#)
        #expect(reply?["ok"] == true)
        #expect(reply?["quitting"] == true)
        #expect(reply?["reason"].flatMap { if case .string(let s) = $0 { return s } else { return nil } }?.contains("has no \(root.path)/usr/bin/skeletond") == true)
        #expect(roots.value.isEmpty, "no chroot into a root that cannot take over")
        #expect(!d.daemon.loop.running, "the daemon stops; shutting down gives the console back")
        #expect(d.logContains("giving the display back before the switch"))
    }

    @Test func aChrootThatFailsGivesTheDisplayBackToo() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a", initramfs: true, storage: .disk)
        let root = try FakeRoot(withExecutable: true)
        d.daemon.config.rootSwitch.executable = FakeRoot.executable
        d.daemon.config.rootSwitch.changeRoot = { path throws(Errno) in throw Errno(1, call: "chroot \(path)") }
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "new-root", "path": "\#(root.path)"}"#)?["quitting"] == true)
        #expect(!d.daemon.loop.running)
        #expect(d.logContains("cannot move into the real root"))
    }

    @Test func onlyTheInitramfsDaemonHasARootToMove() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a")
        let root = try FakeRoot(withExecutable: true)
        let c = try d.connect()
        let reply = d.request(c, #"{"command": "new-root", "path": "\#(root.path)"}"#)
        #expect(reply?["ok"] == false)
        #expect(reply?["error"]?["code"] == "bad_request")
        #expect(d.daemon.loop.running)
        // A relative path is not a root.
        let relative = d.request(c, #"{"command": "new-root", "path": "root"}"#)
        #expect(relative?["error"]?["code"] == "bad_request")
    }

    /// Plymouth's `update-root-fs --new-root-dir` does the same for the initramfs daemon.
    @Test func plymouthsNewRootRequestMovesItToo() throws {
        let roots = Box<[String]>([])
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a", settings: #"{"plymouth": {"listen": true, "socket": "\#(name)"}}"#,
                                  initramfs: true, storage: .disk)
        d.daemon.config.rootSwitch.executable = FakeRoot.executable
        d.daemon.config.rootSwitch.changeRoot = { path throws(Errno) in roots.value.append(path) }
        let root = try FakeRoot(withExecutable: true)
        let p = try TestClient(path: "@" + name)
        p.send(PlymouthRequest(command: .newRoot, argument: Array(root.path.utf8)).bytes)
        var reply: [UInt8] = []
        for _ in 0..<50 where reply.isEmpty {
            d.daemon.turn()
            reply += p.readBytes(1, seconds: 0)
        }
        #expect(reply == [6])
        #expect(roots.value == [root.path])
    }

    /// An initramfs made without the card's DRM driver: the card comes only once the real root's
    /// udev loads it, long after `waitSeconds`. The initramfs daemon keeps waiting for it instead
    /// of drawing into memory (which would leave the whole boot without a skeleton).
    @Test func theInitramfsDaemonKeepsWaitingForACard() throws {
        for initramfs in [true, false] {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wait-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: directory + "/layouts", withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try TransitionEndTests.still("a", x: 20).write(toFile: directory + "/layouts/a.json", atomically: true, encoding: .utf8)
            var flags = RunFlags()
            flags.socket = directory + "/control.sock"
            flags.layouts = directory + "/layouts"
            flags.layout = "a"
            flags.frameCache = "none"
            flags.backend = .auto
            flags.displayWait = 2
            guard case .success(let settings) = flags.settingsSource.load() else { throw HarnessError("settings") }
            let lines = LogLines()
            let clock = ManualClock(now: 100)
            let provider = NoCardYetProvider()
            let daemon = Daemon(settingsSource: flags.settingsSource, settings: settings, logger: Logger(level: .debug) { lines.add($0) },
                                clock: clock, provider: provider, events: SteppedEventSource(), initramfs: initramfs,
                                work: SteppedWork())
            try daemon.start()
            for second in 1...30 {
                clock.set(100 + Double(second))
                daemon.turn()
            }
            if initramfs {
                #expect(daemon.host.display == nil, "no memory display in the initramfs")
                #expect(lines.all.contains { $0.contains("still waiting for one: in the initramfs") })
            } else {
                #expect(daemon.host.display is MemoryDisplay, "elsewhere, auto settles for memory")
            }
            daemon.shutdown()
        }
    }
}

/// No card yet; a descriptor that never becomes readable stands for the watch on /dev/dri.
final class NoCardYetProvider: DisplayProvider {
    private let pipe = Pipe()

    func open(settings: Settings, logger: Logger) throws(DaemonError) -> (any Display)? { nil }
    var watchDescriptor: FileDescriptor? { FileDescriptor(rawValue: pipe.fileHandleForReading.fileDescriptor) }
    func drainWatch() {}
}
