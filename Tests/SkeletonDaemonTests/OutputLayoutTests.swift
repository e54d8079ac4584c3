import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonRender
import Testing

/// Layouts by output: the settings' `display.layouts` and requests that name an output. Each
/// output shows its own layout with the session's look; the others are not touched.
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
    }

    @Test func aShowWithoutAnOutputChangesTheMainLayoutOnly() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "app", heads: ["DP-1", "DP-2"], settings: Self.settings)
        let c = try d.connect()
        let logoBefore = try #require(d.screen(of: "DP-2")).pixels
        #expect(d.request(c, #"{"command": "show", "layout": "other"}"#)?["updated"] == true)
        d.step(to: 101)
        #expect(try #require(d.screen(of: "DP-1")).pixels == (try d.render("other", size: Size(width: 200, height: 100))).pixels)
        #expect(try #require(d.screen(of: "DP-2")).pixels == logoBefore)
    }

    @Test func aRequestNamingAnOutputChangesThatOutputAloneDissolving() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "app", heads: ["DP-1", "DP-2"], settings: Self.settings)
        let c = try d.connect()
        let reply = try #require(d.request(c, #"{"command": "update", "layout": "other", "output": "DP-2"}"#))
        #expect(reply["output"] == "DP-2")
        #expect(reply["layout"] == "other")
        #expect(reply["connected"] == true)
        d.step(to: 100.1)
        let mid = try #require(d.screen(of: "DP-2"))
        #expect(mid.pixels != (try d.render("other", size: Size(width: 200, height: 100))).pixels, "dissolving at 0.1 s")
        #expect(mid.pixels != (try d.render("logo", size: Size(width: 200, height: 100))).pixels)
        d.step(to: 101)
        #expect(try #require(d.screen(of: "DP-2")).pixels == (try d.render("other", size: Size(width: 200, height: 100))).pixels)
        #expect(try #require(d.screen(of: "DP-1")).pixels == (try d.render("app", size: Size(width: 200, height: 100))).pixels)
        // A style change reaches every output.
        #expect(d.request(c, ##"{"command": "update", "tint": "#00FF00"}"##)?["updated"] == true)
        d.step(to: 102)
        let green = PresentationOverrides(tint: Color(red: 0, green: 0xFF, blue: 0))
        #expect(try #require(d.screen(of: "DP-2")).pixels == (try d.render("other", overrides: green, size: Size(width: 200, height: 100))).pixels)
        #expect(try #require(d.screen(of: "DP-1")).pixels == (try d.render("app", overrides: green, size: Size(width: 200, height: 100))).pixels)
    }


    @Test func aSettingsLayoutThatCannotBeLoadedIsReportedAndItsOutputShowsTheMainLayout() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "app", heads: ["DP-1", "DP-2"],
                                  settings: #"{"display": {"layouts": {"DP-2": "missing"}}}"#)
        #expect(d.logContains("display.layouts.DP-2"))
        #expect(try #require(d.screen(of: "DP-2")).pixels == (try d.render("app", size: Size(width: 200, height: 100))).pixels)
    }
}
