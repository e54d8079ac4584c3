import Foundation
import SkeletonLayout
import Testing

/// The initramfs's executable (`skeletond-initramfs`, which the hook copies into the initramfs
/// as /usr/bin/skeletond): the daemon from `run` and its plain flags, and by its `skeletonctl`
/// link the requests of the initramfs's scripts, read without a command-line parser.
@Suite(.serialized) struct InitramfsExecutableTests {
    @Test func itRunsTheDaemonAndAnswersTheScriptsRequests() throws {
        let d = try DaemonProcess(executable: "skeletond-initramfs")
        let skeletonctl = d.directory.appendingPathComponent("skeletonctl").path
        try FileManager.default.createSymbolicLink(atPath: skeletonctl, withDestinationPath: builtExecutable("skeletond-initramfs"))

        let ping = try runTool(skeletonctl, ["--socket", d.socketPath, "ping"])
        #expect(ping.status == 0 && ping.err.isEmpty, "\(ping)")
        let status = try runTool(skeletonctl, ["--timeout=5", "--socket=\(d.socketPath)", "status"])
        #expect(status.status == 0, "\(status)")
        let fields = try JSONValue.parse(Array(status.out.utf8))
        #expect(fields["layout"] == "default" && fields["state"] != nil, "\(status.out)")
        #expect(fields["ok"] == nil && fields["id"] == nil, "the reply's own fields are printed")

        // An error reply: 1, its message on standard error.
        let newRoot = try runTool(skeletonctl, ["--socket", d.socketPath, "new-root", "/nowhere"])
        #expect(newRoot.status == 1 && newRoot.err.contains("skeletonctl: this daemon was not started from the initramfs"), "\(newRoot)")
        // What it does not read: 64, with what it reads.
        for words in [["update", "--progress", "0.5"], ["shutdown", "suspend"], ["hide", "now"], []] {
            let refused = try runTool(skeletonctl, ["--socket", d.socketPath] + words)
            #expect(refused.status == 64 && refused.err.contains("usage (the initramfs's skeletonctl): skeletonctl [--socket PATH]"),
                    "\(words): \(refused)")
        }
        let badTimeout = try runTool(skeletonctl, ["--timeout", "soon", "ping"])
        #expect(badTimeout.status == 64 && badTimeout.err.contains(#"cannot read the option "--timeout""#), "\(badTimeout)")
        // No daemon there: 2.
        let nobody = try runTool(skeletonctl, ["--socket", d.directory.appendingPathComponent("nobody.sock").path, "ping"])
        #expect(nobody.status == 2 && nobody.err.contains("cannot reach skeletond at"), "\(nobody)")

        let hide = try runTool(skeletonctl, ["--socket", d.socketPath, "hide"])
        #expect(hide.status == 0, "\(hide)")
        let quit = try runTool(skeletonctl, ["--socket", d.socketPath, "quit"])
        #expect(quit.status == 0, "\(quit)")
        #expect(d.waitForExit() == 0)
    }

    @Test func anythingButRunIsRefusedSayingWhatItRuns() throws {
        let r = try runTool(builtExecutable("skeletond-initramfs"), ["render", "x.json"])
        #expect(r.status == 64)
        #expect(r.err.contains(#"skeletond (the initramfs's build): cannot run "render x.json": it runs only `run`"#), "\(r.err)")
    }
}
