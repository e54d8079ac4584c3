import CSkeletonSystem
import Foundation
import SkeletonDisplay
import SkeletonPicture
import SkeletonLayout
import SkeletonRender
import Testing

/// A real daemon process on a temporary socket, driven by real clients.
@Suite(.serialized) struct DaemonProcessTests {
    static let staticLayout = """
    {"name": "still", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
     "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
     "root": {"kind": "view", "children": [{"kind": "image", "frame": [20, 20, 60, 60], "cornerRadius": 8}]}}
    """

    /// Going down (`shutdown`): argv[0] begins with '@' (systemd-shutdown spares it), and
    /// neither SIGTERM nor `quit` stops the daemon.
    @Test func goingDownTheDaemonIsSparedAndOutlivesSIGTERM() throws {
        let d = try DaemonProcess()
        let c = try d.connect()
        let reply = c.request(#"{"command": "shutdown", "mode": "poweroff"}"#)
        #expect(reply?["shutdown"] == true, "\(String(describing: reply))")
        let pid = d.process.processIdentifier
        let argv0 = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        #expect(argv0.hasPrefix("@"), "\(argv0)")
        kill(pid, SIGTERM)
        #expect(d.logContains("signal 15: the system is going down; the skeleton stays until the power is off"))
        #expect(c.request(#"{"command": "ping"}"#)?["pong"] == true)
        #expect(c.request(#"{"command": "quit"}"#)?["error"]?["code"] == "going_down")
        #expect(d.process.isRunning)
        _ = d.stop(signal: SIGKILL)
        #expect(!d.log.contains("<6>stopped"), "the usual stop ran")
    }

    @Test func readinessAndEveryCommand() throws {
        let d = try DaemonProcess(layouts: ["default": TestLayouts.simpleText, "still": Self.staticLayout])
        // Ready once the socket listens, before the display is opened and the first frame drawn
        // (a splash must not hold the boot); what it shows follows in a status of its own.
        #expect(d.readyMessage == "READY=1\nSTATUS=starting: opening the display and drawing the first frame")
        let shown = d.nextNotifyMessage(seconds: 20)
        #expect(shown == "STATUS=showing; memory: memory 200x100")
        let c = try d.connect()
        let pong = c.request(#"{"command": "ping", "id": 7}"#)
        #expect(pong?["ok"] == true)
        #expect(pong?["id"] == 7)
        let status = c.request(#"{"command": "status", "id": "s"}"#)
        #expect(status?["id"] == "s")
        #expect(status?["state"] == "showing")
        #expect(status?["layout"] == "default")
        #expect(status?["presentation"]?["style"] == "gradient")
        #expect(status?["presentation"]?["animation"]?["direction"] == "leftRight")
        #expect(status?["outputs"]?.jsonText.contains("\"mode\":\"200x100\"") == true)
        #expect((status?["uptime"]?.numberValue ?? -1) >= 0)
        let tree = c.request(#"{"command": "tree"}"#)
        #expect(tree?["tree"]?["root"]?["kind"] == "view")
        #expect(tree?["tree"]?["output"] == [200, 100])

        let update = c.request(#"{"command": "update", "tint": "peterRiver", "animation": {"direction": "rightLeft"}}"#)
        #expect(update?["ok"] == true)
        let after = c.request(#"{"command": "status"}"#)
        #expect(after?["appearance"]?["tint"] == "#3498DB")
        #expect(after?["presentation"]?["animation"]?["direction"] == "rightLeft")

        let again = c.request(#"{"command": "show", "layout": "still"}"#)
        #expect(again?["updated"] == true, "a second show while showing is an update")
        let switched = c.request(#"{"command": "status"}"#)
        #expect(switched?["layout"] == "still")
        // The custom direction is not silently dropped by a later show (SkeletonView issue #149).
        #expect(switched?["presentation"]?["animation"]?["direction"] == "rightLeft")

        let hide = c.request(#"{"command": "hide", "transition": {"kind": "none"}}"#)
        #expect(hide?["ok"] == true)
        #expect(hide?["state"] == "idle")
        let refused = c.request(#"{"command": "update", "style": "solid", "id": 9}"#)
        #expect(refused?["ok"] == false)
        #expect(refused?["id"] == 9)
        #expect(refused?["error"]?["code"] == "not_showing")
        let reload = c.request(#"{"command": "reload"}"#)
        #expect(reload?["ok"] == true)
        let quit = c.request(#"{"command": "quit"}"#)
        #expect(quit?["ok"] == true)
        #expect(d.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: d.socketPath), "the socket file is removed on exit")
    }

    @Test func badInputGetsAnErrorAndTheConnectionStaysUsable() throws {
        let d = try DaemonProcess()
        let c = try d.connect()
        func expectError(_ line: String, _ code: String, mentions: String, sourceLocation: SourceLocation = #_sourceLocation) {
            let r = c.request(line)
            #expect(r?["ok"] == false, sourceLocation: sourceLocation)
            #expect(r?["error"]?["code"]?.stringValue == code, "\(line)", sourceLocation: sourceLocation)
            #expect(r?["error"]?["message"]?.stringValue?.contains(mentions) == true,
                    "\(r?["error"]?["message"]?.stringValue ?? "no reply") should mention \(mentions)", sourceLocation: sourceLocation)
        }
        expectError(#"{"command": "ping""#, "bad_json", mentions: "not valid JSON")
        expectError(#"[1, 2]"#, "bad_request", mentions: "JSON object")
        expectError(#"{"command": "dance"}"#, "unknown_command", mentions: "dance")
        expectError(#"{"command": 3}"#, "bad_request", mentions: "command")
        expectError(#"{"command": "show", "delay": "soon"}"#, "bad_request", mentions: "delay")
        expectError(#"{"command": "show", "tint": "blurple"}"#, "bad_request", mentions: "blurple")
        expectError(#"{"command": "show", "stlye": "solid"}"#, "bad_request", mentions: "did you mean \"style\"")
        expectError(#"{"command": "show", "layout": "nosuch"}"#, "unknown_layout", mentions: "nosuch")
        expectError(#"{"command": "show", "layout": "../../etc/passwd"}"#, "bad_layout_name", mentions: "slash")
        expectError(#"{"command": "show", "layout": "a..b"}"#, "bad_layout_name", mentions: "..")
        expectError(#"{"command": "hide", "retain": "yes"}"#, "bad_request", mentions: "retain")
        // A line over 64 KiB: one error, the rest of the line discarded, then business as usual.
        c.send("{\"command\": \"ping\", \"pad\": \"" + String(repeating: "x", count: 70_000) + "\"}\n")
        let long = c.readReply()
        #expect(long?["error"]?["code"] == "line_too_long")
        let ping = c.request(#"{"command": "ping", "id": "after"}"#)
        #expect(ping?["id"] == "after")
        #expect(ping?["ok"] == true)
        let status = c.request(#"{"command": "status"}"#)
        #expect(status?["state"] == "showing", "bad requests never stop the skeleton")
    }

    @Test func stalledAndGreedyClientsDoNotHoldUpOthers() throws {
        let d = try DaemonProcess(extraArguments: ["--max-fps", "30"])
        let staller = try d.connect()
        staller.send(#"{"command": "pi"#)
        let greedy = try d.connect()
        let request = Array(#"{"command": "status"}"#.utf8) + [0x0A]
        var burst: [UInt8] = []
        for _ in 0..<2000 { burst += request }
        // It never reads: the daemon stops reading it once its replies pile up, so its sends
        // stop being taken; nobody else waits for it.
        var sent = 0
        for _ in 0..<10 {
            let n = burst.withUnsafeBytes { Glibc.send(greedy.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if n > 0 { sent += n }
        }
        let other = try d.connect()
        let pong = other.request(#"{"command": "ping"}"#, seconds: 5)
        #expect(pong?["ok"] == true)
        let status = other.request(#"{"command": "status"}"#)
        #expect(status?["state"] == "showing")
        #expect(status?["clients"] == 3)
        // Reading now, it gets a reply for every whole request it sent.
        var replies = 0
        while replies < sent / request.count, greedy.readReply(seconds: 10) != nil { replies += 1 }
        #expect(replies == sent / request.count)
        staller.send(#"ng", "id": 1}"# + "\n")
        #expect(staller.readReply()?["id"] == 1, "a half line completes later")
    }

    @Test func sixtyFourClientsAtOnce() throws {
        let d = try DaemonProcess()
        let clients = try (0..<64).map { _ in try d.connect() }
        for (i, c) in clients.enumerated() { c.send("{\"command\": \"ping\", \"id\": \(i)}\n") }
        for (i, c) in clients.enumerated() {
            let r = c.readReply()
            #expect(r?["id"]?.numberValue == Double(i))
        }
        let status = clients[0].request(#"{"command": "status"}"#)
        #expect(status?["clients"] == 64)
    }

    @Test func sigtermEndsCleanly() throws {
        let d = try DaemonProcess()
        #expect(FileManager.default.fileExists(atPath: d.socketPath))
        #expect(d.stop(signal: SIGTERM) == 0)
        #expect(!FileManager.default.fileExists(atPath: d.socketPath))
        #expect(d.logContains("stopped"))
        #expect(!d.log.contains("<3>"), "no error logged: \(d.log)")
    }

    @Test func sighupReloadsAndKeepsTheOldLayoutWhenTheNewOneIsBroken() throws {
        let d = try DaemonProcess(layouts: ["default": TestLayouts.simpleText])
        let c = try d.connect()
        #expect(c.request(#"{"command": "status"}"#)?["layout"] == "default")
        let file = d.layoutsDirectory.appendingPathComponent("default.json")
        try TestLayouts.simpleText.replacingOccurrences(of: "\"lines\": 2", with: "\"lines\": \"two\"")
            .write(to: file, atomically: true, encoding: .utf8)
        kill(d.process.processIdentifier, SIGHUP)
        let reload = c.request(#"{"command": "reload"}"#)
        #expect(reload?["ok"] == false)
        #expect(reload?["error"]?["message"]?.stringValue?.contains("root.children[2].lines") == true)
        let status = c.request(#"{"command": "status"}"#)
        #expect(status?["state"] == "showing")
        #expect(status?["layout"] == "default")
        #expect(d.logContains("SIGHUP"))
        #expect(d.logContains("default.json: root.children[2].lines"))
    }

    @Test func brokenStartLayoutFallsBackToTheBuiltInOne() throws {
        let broken = TestLayouts.simpleText.replacingOccurrences(of: "\"#FFFFFF\"", with: "\"#FFFFFG\"")
        let d = try DaemonProcess(layouts: ["default": broken])
        let c = try d.connect()
        let status = c.request(#"{"command": "status"}"#)
        #expect(status?["state"] == "showing")
        #expect(status?["layout"] == "builtin-default")
        #expect(d.logContains("default.json: canvas.background"))
        #expect(d.logContains("built-in default"))
    }

    @Test func aRestartAfterAHideDoesNotShowTheSkeletonAgain() throws {
        let first = try DaemonProcess()
        let c = try first.connect()
        #expect(c.request(#"{"command": "hide", "transition": {"kind": "none"}}"#)?["hidden"] == true)
        #expect(first.stop(signal: SIGKILL) != 0, "a crash")
        let second = try DaemonProcess(sameDirectoryAs: first)
        let status = try second.connect().request(#"{"command": "status"}"#)
        #expect(status?["state"] == "idle", "the restarted daemon stays hidden")
        #expect(second.logContains("not showing default"))
        // A show clears the mark: the next restart shows the skeleton again.
        #expect(try second.connect().request(#"{"command": "show", "transition": {"kind": "none"}}"#)?["shown"] == true)
        #expect(second.stop(signal: SIGKILL) != 0)
        let third = try DaemonProcess(sameDirectoryAs: second)
        #expect(try third.connect().request(#"{"command": "status"}"#)?["state"] == "showing")
    }

    @Test func skeletonDebugLogsTheResolvedTreeOnEveryShow() throws {
        let d = try DaemonProcess(layouts: ["default": TestLayouts.simpleText, "still": Self.staticLayout],
                                  environment: ["SKELETON_DEBUG": "1"])
        let c = try d.connect()
        #expect(c.request(#"{"command": "hide", "transition": {"kind": "none"}}"#)?["ok"] == true)
        #expect(c.request(#"{"command": "show", "layout": "still", "transition": {"kind": "none"}}"#)?["shown"] == true)
        #expect(c.request(#"{"command": "ping"}"#)?["ok"] == true)
        #expect(d.logContains("SKELETON_DEBUG tree: {\"layout\":\"still\""))
        let trees = d.log.components(separatedBy: "\n").filter { $0.contains("SKELETON_DEBUG tree: ") }
        #expect(trees.count == 2, "one tree at start, one for the second show: \(d.log)")
        #expect(trees.last?.contains("\"layout\":\"still\"") == true)
        #expect(trees.last?.contains("\"frame\":[20,20,60,60]") == true)
    }

    @Test func staleSocketIsReplacedAndALiveOneRefused() throws {
        let first = try DaemonProcess()
        // A second daemon on the same socket must refuse to start.
        let second = try runTool(builtExecutable("skeletond"), ["run", "--config", first.directory.appendingPathComponent("skeletond.json").path,
                                                                  "--socket", first.socketPath, "--backend", "memory", "--layout", "none"])
        #expect(second.status == 1)
        #expect(second.err.contains("another skeletond is already listening on \(first.socketPath)"))
        // Kill the first without cleanup: its socket file stays, stale; a new daemon replaces it.
        #expect(first.stop(signal: SIGKILL) != 0)
        #expect(FileManager.default.fileExists(atPath: first.socketPath))
        // The replacement signals READY=1 only once it listens on the same path.
        let replacement = try DaemonProcess(sameDirectoryAs: first)
        #expect(try replacement.connect().request(#"{"command": "ping"}"#)?["ok"] == true)
        #expect(replacement.logContains("listening on \(first.socketPath)"))
    }

    /// A daemon from the initramfs marks itself beside its socket: `initramfs.pid`, and
    /// `initramfs.alive`, a link to its /proc entry that skeletond.service's and
    /// skeletond.socket's conditions read. `skeletond run` beside it refuses to start a second.
    /// A clean stop removes both; a kill leaves a link that no longer resolves, and the next
    /// `skeletond run` takes over.
    @Test func aDaemonFromTheInitramfsIsMarkedAndNotStartedTwice() throws {
        let files = FileManager.default
        let first = try DaemonProcess(environment: ["SKELETOND_INITRAMFS": "1"])
        let alive = first.directory.appendingPathComponent("initramfs.alive").path
        let marker = first.directory.appendingPathComponent("initramfs.pid").path
        #expect(try files.destinationOfSymbolicLink(atPath: alive) == "/proc/\(first.process.processIdentifier)")
        #expect(files.fileExists(atPath: alive), "the link does not resolve while the daemon lives")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "\(first.process.processIdentifier)\n")
        let second = try runTool(builtExecutable("skeletond"), ["run", "--config", first.directory.appendingPathComponent("skeletond.json").path,
                                                                  "--socket", first.socketPath, "--backend", "memory", "--layout", "none"])
        #expect(second.status == 1)
        #expect(second.err.contains("the daemon started in the initramfs shows the skeleton on \(first.socketPath); not starting a second one"), "\(second.err)")
        #expect(first.stop() == 0)
        #expect((try? files.destinationOfSymbolicLink(atPath: alive)) == nil && !files.fileExists(atPath: marker), "marks left after a clean stop")

        let killed = try DaemonProcess(environment: ["SKELETOND_INITRAMFS": "1"], sameDirectoryAs: first)
        #expect(killed.stop(signal: SIGKILL) != 0)
        #expect((try? files.destinationOfSymbolicLink(atPath: alive)) != nil && !files.fileExists(atPath: alive),
                "after a kill the link must be left and no longer resolve")
        let replacement = try DaemonProcess(sameDirectoryAs: killed)
        #expect(replacement.logContains("the daemon started in the initramfs is gone"))
        #expect(try replacement.connect().request(#"{"command": "ping"}"#)?["ok"] == true)
        #expect((try? files.destinationOfSymbolicLink(atPath: alive)) == nil, "the stale link was not removed")
    }

    @Test func socketMode() throws {
        let d = try DaemonProcess(settings: #"{"socket": {"mode": "0666"}}"#)
        var info = stat()
        stat(d.socketPath, &info)
        #expect(info.st_mode & 0o777 == 0o666)
    }

    @Test func skeletonctlExitCodesAndWait() throws {
        let d = try DaemonProcess(layouts: ["default": TestLayouts.simpleText, "still": Self.staticLayout])
        let ctl = builtExecutable("skeletonctl")
        let env = ["SKELETOND_SOCKET": d.socketPath]
        #expect(try runTool(ctl, ["ping"], environment: env).status == 0)
        let status = try runTool(ctl, ["status", "--json"], environment: env)
        #expect(status.status == 0)
        #expect(status.out.contains("\"state\":\"showing\""))
        let bad = try runTool(ctl, ["show", "nosuch"], environment: env)
        #expect(bad.status == 1)
        #expect(bad.err.contains("no layout named \"nosuch\""))
        let unreachable = try runTool(ctl, ["--socket", "/nonexistent/skeletond.sock", "ping"])
        #expect(unreachable.status == 2)
        #expect(unreachable.err.contains("/nonexistent/skeletond.sock"))
        #expect(try runTool(ctl, ["update", "still", "--tint", "#E74C3C", "--no-animated"], environment: env).status == 0)
        let wait = try runTool(ctl, ["hide", "--transition", "crossDissolve:0.3", "--wait"], environment: env)
        #expect(wait.status == 0)
        let after = try d.connect().request(#"{"command": "status"}"#)
        #expect(after?["state"] == "idle", "--wait returns once the hide has finished")
        let show = try runTool(ctl, ["show", "still", "--delay", "0.2", "--wait"], environment: env)
        #expect(show.status == 0)
        #expect(try d.connect().request(#"{"command": "status"}"#)?["state"] == "showing")
        #expect(try runTool(ctl, ["show", "--transition", "sideways"], environment: env).status != 0)
        // A daemon that accepts but never answers must not hang a boot script.
        let mutePath = d.directory.appendingPathComponent("mute.sock").path
        let mute = sk_unix_listen(mutePath, 4)
        defer { close(mute) }
        let hung = try runTool(ctl, ["--socket", mutePath, "--timeout", "0.3", "ping"])
        #expect(hung.status == 2)
        #expect(hung.err.contains("no reply from skeletond at \(mutePath) within 0.3 s"))
    }

    @Test func skeletonctlResetReturnsToTheLayoutsOwnLook() throws {
        let d = try DaemonProcess(layouts: ["still": Self.staticLayout], startLayout: "still")
        let ctl = builtExecutable("skeletonctl")
        let env = ["SKELETOND_SOCKET": d.socketPath]
        func look() -> (tint: JSONValue?, style: JSONValue?, animated: JSONValue?) {
            let status = try? d.connect().request(#"{"command": "status"}"#)
            return (status?["appearance"]?["tint"], status?["presentation"]?["style"], status?["presentation"]?["animated"])
        }
        #expect(look().tint == "#ECF0F1")
        #expect(try runTool(ctl, ["update", "--tint", "alizarin", "--style", "gradient", "--animated"], environment: env).status == 0)
        #expect(look().tint == "#E74C3C")
        #expect(try runTool(ctl, ["update", "--transition", "none"], environment: env).status == 0)
        #expect(look().tint == "#E74C3C", "overrides stay in force")
        let reset = try runTool(ctl, ["update", "--reset"], environment: env)
        #expect(reset.status == 0, "\(reset.err)")
        #expect(look() == ("#ECF0F1", "solid", false), "the layout's own look")
        // show --reset: the layout's look with the request's own overrides on top.
        #expect(try runTool(ctl, ["update", "--tint", "alizarin", "--animated"], environment: env).status == 0)
        #expect(try runTool(ctl, ["show", "--reset", "--scheme", "dark"], environment: env).status == 0)
        #expect(look() == ("#1C2325", "solid", false))
        // Values the daemon would refuse are refused before anything is sent.
        let bad = try runTool(ctl, ["update", "--reset", "--duration", "0"], environment: env)
        #expect(bad.status == 64)
        #expect(bad.err.contains("0 is out of range: expected a number greater than 0, at most 600"), "\(bad.err)")
    }

    @Test func snapshotShowsWhatRenderDraws() throws {
        let snapshot = FileManager.default.temporaryDirectory.appendingPathComponent("snap-\(UUID().uuidString.prefix(8)).png").path
        defer { try? FileManager.default.removeItem(atPath: snapshot) }
        let d = try DaemonProcess(layouts: ["still": Self.staticLayout], startLayout: "still", extraArguments: ["--snapshot", snapshot])
        // The snapshot is written off the loop; the status says when.
        #expect(try d.connect().awaitSnapshots(1))
        let image = try ImageFile.readPNG(snapshot)
        guard case .success(let layout) = LayoutLoader.load(text: Array(Self.staticLayout.utf8), file: "still.json") else {
            Issue.record("layout invalid"); return
        }
        let expected = PixelBuffer(width: 200, height: 100)
        FrameRenderer(layout: layout, outputSize: Size(width: 200, height: 100)).renderFull(at: 0, into: expected.canvas)
        #expect(image.pixels == expected.pixels)
        #expect(image[50, 50] == 0xECF0F1)
        #expect(image[5, 5] == 0xFFFFFF)
        // hide --retain leaves the last frame: the snapshot does not go black.
        let c = try d.connect()
        #expect(c.request(#"{"command": "hide", "retain": true}"#)?["retained"] == true)
        #expect(c.request(#"{"command": "ping"}"#)?["ok"] == true)
        #expect(try ImageFile.readPNG(snapshot).pixels == expected.pixels)
        let status = c.request(#"{"command": "status"}"#)
        #expect(status?["retained"] == true)
        #expect(status?["state"] == "idle")
    }
}
