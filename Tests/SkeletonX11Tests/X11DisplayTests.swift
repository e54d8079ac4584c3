import CXCB
import Foundation
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSettings
import SkeletonSystem
import Testing
@testable import SkeletonX11

/// The X11 output against a real X server (Xvfb): what it presents is what the server shows,
/// pixel for pixel; a window that maps while the skeleton is kept on top goes under it, at the
/// screen's size, and goes on being drawn (unobscured for the X server); the server going away
/// ends the display.
@Suite(.serialized) struct X11DisplayTests {
    /// Reads the server's events until `output` can take a frame (the round trip came back).
    static func settle(_ display: X11Display, _ output: any DisplayOutput, until done: () -> Bool = { true }) throws {
        let deadline = Date().addingTimeInterval(10)
        while !output.canPresent || !done() {
            guard Date() < deadline, let fd = display.eventDescriptor else { throw XvfbError("the server did not answer within 10 s") }
            if !SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: 50).isEmpty {
                try display.handleEvents()
            }
        }
    }

    /// The app's requests so far have reached the skeleton's client (a round trip of the app's),
    /// it has answered them (its events handled), and the server has done what it answered (a
    /// round trip of the skeleton's).
    static func answer(_ display: X11Display, _ x: Xvfb) throws {
        free(xcb_get_input_focus_reply(x.client, xcb_get_input_focus(x.client), nil))
        let fd = try #require(display.eventDescriptor)
        _ = SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: 5000)
        try display.handleEvents()
        let c = try #require(display.connection.connection)
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nil))
    }

    static func drawBands(_ canvas: Canvas, shift: Int) {
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                canvas[x, y] = UInt32(((x + shift) / 16) % 256) << 16 | UInt32((y / 8) % 256) << 8 | UInt32((x ^ y) & 0xFF)
            }
        }
    }

    static func firstDifference(_ a: Canvas, _ b: Canvas) -> String? {
        guard a.width == b.width, a.height == b.height else { return "sizes \(a.width)x\(a.height) and \(b.width)x\(b.height)" }
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] & 0xFF_FFFF != b[x, y] & 0xFF_FFFF {
                return "at (\(x), \(y)): \(String(a[x, y] & 0xFF_FFFF, radix: 16)) against \(String(b[x, y] & 0xFF_FFFF, radix: 16))"
            }
        }
        return nil
    }

    @Test func aWholeFrameAndThenDamageAreWhatTheServerShows() throws {
        let x = try Xvfb()
        let display = try X11Display.open(display: x.display, stayOnTop: false)
        defer { display.close() }
        let output = try #require(display.outputs.first)
        #expect(output.size == Size(width: 640, height: 400), "the root's size")
        #expect(output.status.compositor?.hasPrefix("Xvfb (pid ") == true, "\(String(describing: output.status.compositor))")
        Self.drawBands(output.shadow, shift: 0)
        #expect(try output.present(damage: [output.shadow.bounds]))
        #expect(!output.canPresent, "one frame in flight until the round trip after it")
        try Self.settle(display, output)
        var shown = try x.screenshot()
        #expect(Self.firstDifference(shown.canvas, output.shadow) == nil, "\(Self.firstDifference(shown.canvas, output.shadow) ?? "")")
        // A rectangle narrower than the screen, then one taller than a request holds at once.
        Self.drawBands(output.shadow, shift: 5)
        #expect(try output.present(damage: [PixelRect(x: 33, y: 17, width: 101, height: 57), PixelRect(x: 0, y: 100, width: 640, height: 300)]))
        try Self.settle(display, output)
        shown = try x.screenshot()
        let expected = PixelBuffer(size: output.size)
        Self.drawBands(expected.canvas, shift: 0)
        for rect in [PixelRect(x: 33, y: 17, width: 101, height: 57), PixelRect(x: 0, y: 100, width: 640, height: 300)] {
            for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { expected.canvas[x, y] = output.shadow[x, y] } }
        }
        #expect(Self.firstDifference(shown.canvas, expected.canvas) == nil, "only the damage changed: \(Self.firstDifference(shown.canvas, expected.canvas) ?? "")")
    }

    /// No window manager: the skeleton's client manages the screen. The app's window maps under
    /// the skeleton's, made the screen's size, and is unobscured for the server (so the app
    /// draws); when the skeleton goes, the app's window is what shows, at once.
    @Test func aWindowThatMapsGoesUnderAtTheScreensSizeAndShowsWhenTheSkeletonGoes() throws {
        let x = try Xvfb()
        let display = try X11Display.open(display: x.display, stayOnTop: true)
        defer { display.close() }
        #expect(display.stackingNote.hasPrefix("no window manager runs"), "\(display.stackingNote)")
        var notes: [String] = []
        display.note = { notes.append($0) }
        let output = try #require(display.outputs.first)
        Self.drawBands(output.shadow, shift: 0)
        #expect(try output.present(damage: [output.shadow.bounds]))
        try Self.settle(display, output)
        let app = x.mapWindow(pixel: 0x00_22_CC_44)
        try Self.answer(display, x)
        let geometry = try #require(x.geometry(app))
        #expect(geometry.x == 0 && geometry.y == 0 && geometry.width == 640 && geometry.height == 400, "\(geometry)")
        let order = x.stacking()
        #expect(order.firstIndex(of: app).map { $0 < order.count - 1 } == true, "the app's window is under the skeleton's: \(order), app \(app)")
        let shown = try x.screenshot()
        #expect(Self.firstDifference(shown.canvas, output.shadow) == nil, "the skeleton still shows: \(Self.firstDifference(shown.canvas, output.shadow) ?? "")")
        #expect(!x.visibilities().contains(2), "the app's window is never fully obscured for the server (redirected)")
        #expect(notes == ["x11: a window mapped while the skeleton shows: put under the skeleton's window"], "\(notes)")
        display.release(retainingPicture: true)
        let after = try x.screenshot()
        #expect(after.canvas[0, 0] & 0xFF_FFFF == 0x22_CC_44 && after.canvas[639, 399] & 0xFF_FFFF == 0x22_CC_44,
                "the app's window, whole: \(String(after.canvas[0, 0], radix: 16)) \(String(after.canvas[639, 399], radix: 16))")
    }

    /// A window that raises itself while the skeleton is kept on top stays under it.
    @Test func aRaiseWhileTheSkeletonShowsStaysUnderIt() throws {
        let x = try Xvfb()
        let display = try X11Display.open(display: x.display, stayOnTop: true)
        defer { display.close() }
        let output = try #require(display.outputs.first)
        Self.drawBands(output.shadow, shift: 0)
        #expect(try output.present(damage: [output.shadow.bounds]))
        let app = x.mapWindow(pixel: 0x00_CC_22_44)
        try Self.answer(display, x)
        #expect(x.stacking().last != app, "mapped under: \(x.stacking())")
        let above: [UInt32] = [XCB_STACK_MODE_ABOVE.rawValue]
        xcb_configure_window(x.client, app, UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), above)
        try Self.answer(display, x)
        #expect(x.stacking().last != app, "raised, and still under: \(x.stacking())")
        try Self.settle(display, output)
        let shown = try x.screenshot()
        #expect(Self.firstDifference(shown.canvas, output.shadow) == nil, "\(Self.firstDifference(shown.canvas, output.shadow) ?? "")")
    }

    @Test func theServerGoingAwayEndsTheDisplay() throws {
        let x = try Xvfb()
        let display = try X11Display.open(display: x.display, stayOnTop: false)
        defer { display.close() }
        x.stop()
        let fd = try #require(display.eventDescriptor)
        _ = SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: 5000)
        do {
            try display.handleEvents()
            Issue.record("no error after the server went away")
        } catch {
            #expect(error.displayServerGone)
            #expect(error.message.hasPrefix("x11: the X server Xvfb (pid "), "\(error.message)")
            #expect(error.message.contains("went away"), "\(error.message)")
        }
    }

    @Test func anXServerThatIsNotThereIsSaid() {
        do {
            _ = try X11Display.open(display: ":999", stayOnTop: false)
            Issue.record("opened :999")
        } catch {
            #expect(error.message == "x11: no X server answers at :999 (the socket or the stream failed)", "\(error.message)")
        }
    }

    @Test func localDisplaysHaveASocketToWaitFor() {
        #expect(X11DisplayProvider.localSocket(of: ":0") == "/tmp/.X11-unix/X0")
        #expect(X11DisplayProvider.localSocket(of: ":12.0") == "/tmp/.X11-unix/X12")
        #expect(X11DisplayProvider.localSocket(of: "host:0") == nil)
        #expect(X11DisplayProvider.localSocket(of: ":") == nil)
        #expect(X11DisplayProvider.localSocket(of: ":a") == nil)
    }

    @Test func theSettingsObject() throws {
        let text = #"{"display": {"backend": "x11", "x11": {"display": ":3", "whenGone": "auto", "stayOnTop": true}}}"#
        let s = try Settings.parse(Array(text.utf8), file: "s.json").get()
        #expect(s.backend == .x11 && s.x11.display == ":3" && s.x11.whenGone == .auto && s.x11.stayOnTop)
        let bad = #"{"display": {"x11": {"display": "", "stayOnTop": 1, "colour": 2}}}"#
        guard case .failure(let error) = Settings.parse(Array(bad.utf8), file: "s.json") else {
            Issue.record("accepted \(bad)")
            return
        }
        let text2 = "\(error)"
        #expect(text2.contains("display.x11.display") && text2.contains("expected an X display such as \":0\", or null, found \"\""), "\(text2)")
    }
}
