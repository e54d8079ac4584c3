import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import Testing

/// The last frame of every transition is the end state exactly, as `skeletond render` draws it:
/// a dissolve that stops at 99 % leaves a picture nobody asked for on screen. The value's
/// transitions drawn by the outputs' compositors, with no daemon (`ScreenOnOutputs`).
@Suite struct TransitionEndTests {
    static func still(_ name: String, x: Int) -> String {
        """
        {"name": "\(name)", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "appearance": {"tint": "#0000FF"},
         "presentation": {"style": "solid", "animated": false, "transition": {"kind": "crossDissolve", "duration": 0.25}},
         "root": {"kind": "view", "children": [{"kind": "image", "frame": [\(x), 20, 60, 60]}]}}
        """
    }
    static let layouts = ["a": still("a", x: 20), "b": still("b", x: 120)]

    @Test func aLayoutSwitchEndsOnTheNewLayoutExactly() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "a")
        #expect(s.pixels() == (try s.render("a")))
        #expect(s.perform(.show(ShowRequest(layout: "b")), now: 100).fields?["updated"] == true)
        s.draw(at: 100.2)
        #expect(s.pixel(150, 50) != 0x0000FF, "the dissolve is under way at 0.2 s")
        s.draw(at: 101)
        #expect(s.pixel(150, 50) == 0x0000FF)
        #expect(s.pixel(50, 50) == 0xFFFFFF)
        #expect(s.pixels() == (try s.render("b")))
    }

    @Test func aStyleSwitchEndsOnTheNewStyleExactly() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "a")
        #expect(s.perform(.update(UpdateRequest(overrides: PresentationOverrides(style: .gradient))), now: 100).fields?["updated"] == true)
        s.draw(at: 100.1)
        s.draw(at: 101)
        #expect(s.pixels() == (try s.render("a", overrides: PresentationOverrides(style: .gradient), at: 1)))
    }

    @Test func aShowFadeInAndAReShowFromRetainEndOnTheLayout() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: nil)
        #expect(s.perform(.show(ShowRequest(layout: "b")), now: 100).fields?["shown"] == true)
        s.draw(at: 100.2)
        #expect(s.pixels() != (try s.render("b")), "the fade-in is under way at 0.2 s")
        s.draw(at: 101)
        #expect(s.pixels() == (try s.render("b")))
        #expect(s.perform(.hide(HideRequest(retain: true)), now: 101).fields?["retained"] == true)
        #expect(s.perform(.show(ShowRequest(layout: "a")), now: 101).fields?["shown"] == true)
        s.draw(at: 101.1)
        s.draw(at: 102)
        #expect(s.pixels() == (try s.render("a")))
    }

    @Test func aHideWithADissolveEndsOnWhatWasBeneath() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "a")
        #expect(s.perform(.hide(HideRequest(transition: .crossDissolve(duration: 0.5))), now: 100).fields?["hiding"] == true)
        s.draw(at: 100.3)
        #expect(s.pixel(50, 50) != 0)
        s.draw(at: 101)
        #expect(s.pixels().allSatisfy { $0 & 0xFFFFFF == 0 })
    }

    @Test func showWhileShowingHonoursItsTransition() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "a")
        #expect(s.perform(.show(ShowRequest(layout: "b", transition: TransitionSpec.none)), now: 100).fields?["updated"] == true)
        s.draw(at: 100.02)
        #expect(s.pixels() == (try s.render("b")), "no dissolve: the next frame is the new layout")
        #expect(s.perform(.show(ShowRequest(layout: "a", transition: .crossDissolve(duration: 1))), now: 100.02).fields?["updated"] == true)
        s.draw(at: 100.8)
        #expect(s.pixels() != (try s.render("a")), "a one-second dissolve is still under way after 0.78 s")
        s.draw(at: 101.2)
        #expect(s.pixels() == (try s.render("a")))
    }

    @Test func resetReturnsToTheLayoutsOwnLook() throws {
        let s = try ScreenOnOutputs(layouts: Self.layouts, start: "a")
        let red = Color(red: 0xFF, green: 0, blue: 0)
        #expect(s.perform(.update(UpdateRequest(overrides: PresentationOverrides(tint: red))), now: 100).fields?["updated"] == true)
        #expect(s.perform(.update(UpdateRequest(overrides: PresentationOverrides(animated: false))), now: 100).fields?["updated"] == true)
        s.draw(at: 100.1)
        s.draw(at: 101)
        #expect(s.pixel(50, 50) == 0xFF0000, "overrides accumulate")
        #expect(s.perform(.update(UpdateRequest(reset: true)), now: 101).fields?["updated"] == true)
        s.draw(at: 101.1)
        s.draw(at: 102)
        #expect(s.pixels() == (try s.render("a")))
        #expect(s.screen.content.overrides.tint == nil, "the tint is no longer in force")
        let green = Color(red: 0, green: 0xFF, blue: 0)
        #expect(s.perform(.show(ShowRequest(overrides: PresentationOverrides(tint: green), reset: true)), now: 102).fields?["updated"] == true)
        s.draw(at: 102.1)
        s.draw(at: 103)
        #expect(s.pixel(50, 50) == 0x00FF00)
    }
}
