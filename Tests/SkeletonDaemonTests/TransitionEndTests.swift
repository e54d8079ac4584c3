import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonRender
import Testing

/// The last frame of every transition is the end state exactly, as `skeletond render` draws it:
/// a dissolve that stops at 99 % leaves a picture nobody asked for on screen.
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

    func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> UInt32 { buffer.pixels[y * buffer.width + x] & 0xFFFFFF }

    @Test func aLayoutSwitchEndsOnTheNewLayoutExactly() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a")
        #expect(d.screen.pixels == (try d.render("a")).pixels)
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "show", "layout": "b"}"#)?["updated"] == true)
        d.step(to: 100.2)
        #expect(pixel(d.screen, 150, 50) != 0x0000FF, "the dissolve is under way at 0.2 s")
        d.step(to: 101)
        #expect(pixel(d.screen, 150, 50) == 0x0000FF)
        #expect(pixel(d.screen, 50, 50) == 0xFFFFFF)
        #expect(d.screen.pixels == (try d.render("b")).pixels)
    }

    @Test func aStyleSwitchEndsOnTheNewStyleExactly() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a")
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "update", "style": "gradient"}"#)?["updated"] == true)
        d.step(to: 101)
        #expect(d.screen.pixels == (try d.render("a", overrides: PresentationOverrides(style: .gradient), at: 1)).pixels)
    }

    @Test func aShowFadeInAndAReShowFromRetainEndOnTheLayout() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: nil)
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "show", "layout": "b"}"#)?["shown"] == true)
        d.step(to: 100.2)
        #expect(d.screen.pixels != (try d.render("b")).pixels, "the fade-in is under way at 0.2 s")
        d.step(to: 101)
        #expect(d.screen.pixels == (try d.render("b")).pixels)
        #expect(d.request(c, #"{"command": "hide", "retain": true}"#)?["retained"] == true)
        #expect(d.request(c, #"{"command": "show", "layout": "a"}"#)?["shown"] == true)
        d.step(to: 102)
        #expect(d.screen.pixels == (try d.render("a")).pixels)
    }

    @Test func aHideWithADissolveEndsOnWhatWasBeneath() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a")
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "crossDissolve", "duration": 0.5}}"#)?["hiding"] == true)
        d.step(to: 100.3)
        #expect(pixel(d.screen, 50, 50) != 0)
        d.step(to: 101)
        #expect(d.screen.pixels.allSatisfy { $0 & 0xFFFFFF == 0 })
    }

    @Test func showWhileShowingHonoursItsTransition() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a")
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "show", "layout": "b", "transition": {"kind": "none"}}"#)?["updated"] == true)
        d.step(to: 100.02)
        #expect(d.screen.pixels == (try d.render("b")).pixels, "no dissolve: the next frame is the new layout")
        #expect(d.request(c, #"{"command": "show", "layout": "a", "transition": {"kind": "crossDissolve", "duration": 1}}"#)?["updated"] == true)
        d.step(to: 100.8)
        #expect(d.screen.pixels != (try d.render("a")).pixels, "a one-second dissolve is still under way after 0.78 s")
        d.step(to: 101.2)
        #expect(d.screen.pixels == (try d.render("a")).pixels)
    }

    @Test func resetReturnsToTheLayoutsOwnLook() throws {
        let d = try SteppedDaemon(layouts: Self.layouts, start: "a")
        let c = try d.connect()
        #expect(d.request(c, ##"{"command": "update", "tint": "#FF0000"}"##)?["updated"] == true)
        #expect(d.request(c, #"{"command": "update", "animated": false}"#)?["updated"] == true)
        d.step(to: 101)
        #expect(pixel(d.screen, 50, 50) == 0xFF0000, "overrides accumulate")
        #expect(d.request(c, #"{"command": "update", "reset": true}"#)?["updated"] == true)
        d.step(to: 102)
        #expect(d.screen.pixels == (try d.render("a")).pixels)
        let status = d.request(c, #"{"command": "status"}"#)
        #expect(status?["appearance"]?["tint"] != "#FF0000")
        #expect(d.request(c, ##"{"command": "show", "tint": "#00FF00", "reset": true}"##)?["updated"] == true)
        d.step(to: 103)
        #expect(pixel(d.screen, 50, 50) == 0x00FF00)
    }
}
