import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import Testing

/// Layouts by output: the settings' `display.layouts` and requests that name an output. Each
/// output shows its own layout with the session's look; the others are not touched. Requests go
/// to the value drawn by the outputs' compositors (`ScreenOnOutputs`); the settings, the status
/// and the reply's `connected` to a stepped daemon.
@Suite struct OutputLayoutTests {
    static let layouts = ["app": TransitionEndTests.still("app", x: 20), "logo": TransitionEndTests.still("logo", x: 120),
                          "other": TransitionEndTests.still("other", x: 70)]
    static let settings = #"{"display": {"layouts": {"DP-2": "logo"}}}"#

    @Test func theSettingsGiveAnOutputItsOwnLayoutAndTheOthersShowTheMainOne() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "app", heads: ["DP-1", "DP-2"], settings: Self.settings)
        #expect(try #require(d.screen(of: "DP-1")).pixels == (try d.render("app", size: Size(width: 200, height: 100))).pixels)
        #expect(try #require(d.screen(of: "DP-2")).pixels == (try d.render("logo", size: Size(width: 200, height: 100))).pixels)
        let c = try d.connect()
        let status = try #require(d.request(c, #"{"command": "status"}"#))
        guard case .array(let outputs)? = status["outputs"] else { Issue.record("no outputs in \(status)"); return }
        #expect(outputs.map { $0["layout"] } == [.string("app"), .string("logo")])
        #expect(outputs.map { $0["backend"] } == [.string("heads"), .string("heads")])
        // A request naming an output: the reply says whether its monitor is connected.
        let named = try #require(d.request(c, #"{"command": "update", "layout": "other", "output": "DP-2"}"#))
        #expect(named["output"] == "DP-2" && named["layout"] == "other" && named["connected"] == true, "\(named)")
        let away = try #require(d.request(c, #"{"command": "update", "layout": "other", "output": "HDMI-A-9"}"#))
        #expect(away["connected"] == false, "\(away)")
    }

    @Test func aShowWithoutAnOutputChangesTheMainLayoutOnly() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "app", outputs: ["DP-1", "DP-2"], outputLayouts: ["DP-2": "logo"])
        let logoBefore = s.pixels(of: "DP-2")
        #expect(s.perform(.show(ShowRequest(layout: "other")), now: 100).fields?["updated"] == true)
        s.draw(at: 100.1)
        s.draw(at: 101)
        #expect(s.pixels(of: "DP-1") == (try s.render("other")))
        #expect(s.pixels(of: "DP-2") == logoBefore)
    }

    @Test func aRequestNamingAnOutputChangesThatOutputAloneDissolving() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "app", outputs: ["DP-1", "DP-2"], outputLayouts: ["DP-2": "logo"])
        #expect(s.pixels(of: "DP-2") == (try s.render("logo")))
        let answer = s.perform(.update(UpdateRequest(layout: "other", output: "DP-2")), now: 100)
        #expect(answer.output == "DP-2" && answer.fields?["layout"] == "other")
        s.draw(at: 100.1)
        #expect(s.pixels(of: "DP-2") != (try s.render("other")), "dissolving at 0.1 s")
        #expect(s.pixels(of: "DP-2") != (try s.render("logo")))
        s.draw(at: 101)
        #expect(s.pixels(of: "DP-2") == (try s.render("other")))
        #expect(s.pixels(of: "DP-1") == (try s.render("app")))
        // A style change reaches every output.
        let green = PresentationOverrides(tint: Color(red: 0, green: 0xFF, blue: 0))
        #expect(s.perform(.update(UpdateRequest(overrides: green)), now: 101).fields?["updated"] == true)
        s.draw(at: 101.1)
        s.draw(at: 102)
        #expect(s.pixels(of: "DP-2") == (try s.render("other", overrides: green)))
        #expect(s.pixels(of: "DP-1") == (try s.render("app", overrides: green)))
    }




    @Test func aSettingsLayoutThatCannotBeLoadedIsReportedAndItsOutputShowsTheMainLayout() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "app", heads: ["DP-1", "DP-2"],
                                  settings: #"{"display": {"layouts": {"DP-2": "missing"}}}"#)
        #expect(d.logContains("display.layouts.DP-2"))
        #expect(try #require(d.screen(of: "DP-2")).pixels == (try d.render("app", size: Size(width: 200, height: 100))).pixels)
    }
}
