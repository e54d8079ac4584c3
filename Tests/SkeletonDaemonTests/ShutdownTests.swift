import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import Testing

/// `shutdown`: the shutdown layout with its message, on a daemon stepped by hand; nothing takes
/// it off the screen, not even a stop, and a display an app still holds is taken back as soon as
/// it is free. (Plymouth's `change-mode --shutdown` becomes this command:
/// `SplashAdapterTests`.)
@Suite struct ShutdownTests {
    static func layout(_ name: String, background: String) -> String {
        """
        {"name": "\(name)", "canvas": {"width": 200, "height": 100, "background": "\(background)"},
         "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
         "root": {"kind": "view", "skeletonable": false, "children": [
           {"kind": "label", "id": "status", "role": "message", "frame": [0, 0, 200, 40], "text": "Starting", "fontSize": 16},
           {"kind": "image", "frame": [20, 50, 40, 40], "skeletonable": true}
         ]}}
        """
    }

    static let layouts = ["up": layout("up", background: "#FFFFFF"), "bye": layout("bye", background: "#203040")]
    static let settings = #"{"shutdown": {"layout": "bye", "messages": {"reboot": "Bis gleich"}}}"#

    func expected(_ d: SteppedDaemon, _ name: String, message: String) throws -> [UInt32] {
        let size = Size(width: 200, height: 100)
        let image = PixelBuffer(size: size)
        FrameRenderer(layout: try d.layout(name), outputSize: size, content: LayoutContent(texts: ["status": message]),
                      sprites: d.daemon.host.sprites).renderFull(at: 0, into: image.canvas)
        return image.pixels
    }

    @Test func theShutdownLayoutWithItsMessageStaysUntilThePowerIsOff() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "up", settings: Self.settings)
        d.step(to: 101)
        let c = try d.connect()
        // After the boot: hidden, the app on screen.
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "none"}}"#)?["ok"] == true)
        d.step(to: 102)
        #expect(d.daemon.screen.session.state == .idle)
        let reply = d.request(c, #"{"command": "shutdown", "mode": "poweroff"}"#)
        #expect(reply?["shutdown"] == true && reply?["layout"] == "bye" && reply?["mode"] == "poweroff", "\(String(describing: reply))")
        d.step(to: 103)
        let goingDown = try expected(d, "bye", message: "Powering off")
        #expect(d.screen.pixels.elementsEqual(goingDown), "the screen is not the shutdown layout")
        #expect(d.logContains("going down (poweroff): showing bye, \"Powering off\", until the power is off"))
        let status = try StatusReply(json: try #require(d.request(c, #"{"command": "status"}"#)))
        #expect(status.goingDown == .poweroff && status.state == .showing && status.layout == "bye")
        // Nothing takes it off the screen now.
        let hide = d.request(c, #"{"command": "hide"}"#)
        #expect(hide?["error"]?["code"] == "going_down")
        #expect(hide?["error"]?["message"] == "hide refused: the system is going down (poweroff) and the skeleton stays until the power is off")
        #expect(d.request(c, #"{"command": "deactivate"}"#)?["error"]?["code"] == "going_down")
        d.step(to: 104)
        #expect(d.screen.pixels.elementsEqual(goingDown), "the screen is not the shutdown layout")
        // Nor does a stop: `quit` is refused and SIGTERM is logged, not obeyed.
        #expect(d.request(c, #"{"command": "quit"}"#)?["error"]?["code"] == "going_down")
        d.daemon.handleSignal(SIGTERM)
        #expect(d.daemon.loop.running)
        #expect(d.logContains("signal 15: the system is going down; the skeleton stays until the power is off"))
        d.step(to: 105)
        #expect(d.screen.pixels.elementsEqual(goingDown), "the screen is not the shutdown layout")
    }

    /// `shutdown --wait` (skeletond-hide.service's stop, before the getty's clears the console):
    /// the reply comes once the shutdown layout is on screen; told again, within a frame; while an app
    /// holds the display, at once, saying why.
    @Test func aWaitingShutdownIsAnsweredOnceItsFrameIsOnScreen() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "up", heads: ["HDMI-A-1"], settings: Self.settings)
        d.step(to: 101)
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "none"}}"#)?["ok"] == true)
        d.step(to: 102)
        let goingDown = try expected(d, "bye", message: "Bis gleich")
        c.send(#"{"id": "down", "command": "shutdown", "mode": "reboot", "wait": true}"# + "\n")
        var onScreenAtReply: Bool?
        for _ in 0..<20 where onScreenAtReply == nil {
            if let reply = c.readReply(seconds: 0) {
                #expect(reply["id"] == "down" && reply["shown"] == true, "\(reply)")
                onScreenAtReply = d.screen(of: "HDMI-A-1")?.pixels == goingDown
            } else {
                d.daemon.turn()
            }
        }
        #expect(onScreenAtReply == true, "answered before the shutdown layout was on screen (or not at all)")
        c.send(#"{"command": "shutdown", "mode": "reboot", "wait": true}"# + "\n")
        d.step(to: 102.05)
        let again = d.reply(c)
        #expect(again?["ok"] == true, "told again: not answered within a frame's time: \(String(describing: again))")
        #expect(d.screen(of: "HDMI-A-1")?.pixels == goingDown)

        let held = try SteppedDaemon(layouts: Self.layouts, start: "up", heads: ["HDMI-A-1"], settings: Self.settings)
        held.step(to: 101)
        let h = try held.connect()
        #expect(held.request(h, #"{"command": "hide", "retain": true, "transition": {"kind": "none"}}"#)?["ok"] == true)
        held.step(to: 102)
        try #require(held.provider.headsDisplay).heldByAnotherProgram = true
        let reply = held.request(h, #"{"command": "shutdown", "mode": "poweroff", "wait": true}"#, maxTurns: 3)
        #expect(reply?["shown"] == false && reply?["problem"] != nil, "\(String(describing: reply))")
    }


    @Test func aDisplayAnAppStillHoldsIsTakenBackAsSoonAsItIsFree() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "up", heads: ["HDMI-A-1"], settings: Self.settings)
        d.step(to: 101)
        let c = try d.connect()
        // The app took over (`hide --retain`) and is still DRM master while it stops.
        #expect(d.request(c, #"{"command": "hide", "retain": true, "transition": {"kind": "none"}}"#)?["ok"] == true)
        d.step(to: 102)
        let heads = try #require(d.provider.headsDisplay)
        heads.heldByAnotherProgram = true
        let before = try #require(d.screen(of: "HDMI-A-1")).pixels
        #expect(d.request(c, #"{"command": "shutdown", "mode": "poweroff"}"#)?["ok"] == true)
        let attempts = heads.reacquireAttempts
        d.step(to: 102.1)
        // Asked again every 20 ms meanwhile, and nothing drawn over the app.
        #expect((4...6).contains(heads.reacquireAttempts - attempts), "\(heads.reacquireAttempts - attempts) attempts in 0.1 s")
        let untouched = d.screen(of: "HDMI-A-1")?.pixels == before
        #expect(untouched, "drawn over the app's screen while it held the display")
        heads.heldByAnotherProgram = false
        d.step(to: 102.125)
        let goingDown = try expected(d, "bye", message: "Powering off")
        let shown = d.screen(of: "HDMI-A-1")?.pixels == goingDown
        #expect(shown, "the shutdown layout is not on screen 25 ms after the display was free")
        #expect(d.logContains("took the display back"))
    }



    @Test func theSettingsAndTheRequest() throws {
        guard case .success(let s) = Settings.parse(Array(Self.settings.utf8), file: "s.json") else { Issue.record("rejected"); return }
        #expect(s.shutdown.layoutName(start: "up") == "bye")
        #expect(s.shutdown.message(for: .reboot) == "Bis gleich")
        #expect(s.shutdown.message(for: .kexec) == "Restarting")
        #expect(Settings().shutdown.layoutName(start: "up") == "up")
        guard case .failure(let e) = Settings.parse(Array(#"{"shutdown": {"layout": "", "messages": {"poweroof": "x"}}}"#.utf8), file: "s.json") else {
            Issue.record("accepted"); return
        }
        #expect(e.lines == [#"s.json: shutdown.layout: expected a layout name or file, or null, found """#,
                            #"s.json: shutdown.messages.poweroof: unknown key "poweroof" (did you mean "poweroff"?)"#])
        guard case .failure(let f) = RequestDecoder.decode(line: Array(#"{"command": "shutdown", "mode": "suspend"}"#.utf8)) else {
            Issue.record("accepted"); return
        }
        #expect(f.error.code == .badRequest)
        #expect(f.error.message.contains(#"unknown value "suspend": expected one of "poweroff", "reboot", "halt", "kexec""#), "\(f.error.message)")
        guard case .failure(let missing) = RequestDecoder.decode(line: Array(#"{"command": "shutdown"}"#.utf8)) else {
            Issue.record("accepted"); return
        }
        #expect(missing.error.message == #"missing field "mode" for command "shutdown""#)
    }
}
