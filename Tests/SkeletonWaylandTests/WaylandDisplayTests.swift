import Foundation
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem
import Testing
@testable import SkeletonWayland

/// The Wayland output against a real weston: what it presents is what the compositor shows,
/// pixel for pixel, after whole frames, damage-only frames and at a scale of 2.
@Suite(.serialized) struct WaylandDisplayTests {
    static func open(_ weston: Weston) throws -> WaylandDisplay {
        let socket = weston.runtimeDirectory.appendingPathComponent(weston.socketName).path
        return try WaylandDisplay.open(socket: socket, fallbackSize: Size(width: 320, height: 200))
    }

    /// Reads the compositor's events until `output` can take a frame (its frame callback came).
    static func waitForFrame(_ display: WaylandDisplay, _ output: any DisplayOutput) throws {
        let deadline = Date().addingTimeInterval(10)
        while !output.canPresent {
            guard Date() < deadline, let fd = display.eventDescriptor else { throw WestonError("no frame callback within 10 s") }
            if !SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: 100).isEmpty {
                try display.handleEvents()
            }
        }
    }

    /// Bands of colour, so that a row or column in the wrong place shows.
    static func drawBands(_ canvas: Canvas, shift: Int) {
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                canvas[x, y] = UInt32(((x + shift) / 16) % 256) << 16 | UInt32((y / 8) % 256) << 8 | UInt32((x ^ y) & 0xFF)
            }
        }
    }

    @Test func aWholeFrameIsWhatWestonShows() throws {
        let weston = try Weston()
        let display = try Self.open(weston)
        defer { display.close() }
        #expect(display.backendName == "wayland")
        let output = try #require(display.outputs.first)
        #expect(output.size == Size(width: 640, height: 400), "fullscreen on weston's 640x400 output")
        #expect(output.status.compositor?.hasPrefix("weston (pid ") == true, "\(String(describing: output.status.compositor))")
        #expect(output.status.scale == "1")
        Self.drawBands(output.shadow, shift: 0)
        #expect(try output.present(damage: [output.shadow.bounds]))
        #expect(!output.canPresent, "one frame in flight until its callback")
        try Self.waitForFrame(display, output)
        let shown = try weston.screenshot()
        #expect(firstDifference(shown.canvas, output.shadow) == nil, "\(firstDifference(shown.canvas, output.shadow) ?? "")")
    }

    /// Frames that damage a little each time, while the compositor holds one buffer and the next
    /// is written: every buffer is brought up to date where it fell behind.
    @Test func damageOnlyFramesStayExact() throws {
        let weston = try Weston()
        let display = try Self.open(weston)
        defer { display.close() }
        let output = try #require(display.outputs.first)
        Self.drawBands(output.shadow, shift: 0)
        #expect(try output.present(damage: [output.shadow.bounds]))
        for step in 1...8 {
            try Self.waitForFrame(display, output)
            let rect = PixelRect(x: 37 * step, y: 21 * step, width: 90, height: 50)
            output.shadow.fill(rect, with: UInt32(0x10_20_30 &* step) & 0xFF_FFFF)
            #expect(try output.present(damage: [rect]))
        }
        try Self.waitForFrame(display, output)
        #expect((output.status.buffers ?? 0) >= 2, "the compositor held a buffer while the next was written")
        // weston repaints only the damage; a compositor may repaint from the whole buffer.
        let committed = try #require((output as? WaylandOutput)?.committed)
        #expect(firstDifference(committed.canvas, output.shadow) == nil, "\(firstDifference(committed.canvas, output.shadow) ?? "")")
        let shown = try weston.screenshot()
        #expect(firstDifference(shown.canvas, output.shadow) == nil, "\(firstDifference(shown.canvas, output.shadow) ?? "")")
    }

    /// weston's output at scale 2: the window is 320x200 logical, drawn at 640x400 pixels.
    @Test func aScaledOutputGetsEveryPixel() throws {
        let weston = try Weston(width: 320, height: 200, scale: 2)
        let display = try Self.open(weston)
        defer { display.close() }
        let output = try #require(display.outputs.first)
        #expect(output.size == Size(width: 640, height: 400))
        #expect(output.status.scale == "2")
        Self.drawBands(output.shadow, shift: 3)
        #expect(try output.present(damage: [output.shadow.bounds]))
        try Self.waitForFrame(display, output)
        let shown = try weston.screenshot()
        #expect(firstDifference(shown.canvas, output.shadow) == nil, "\(firstDifference(shown.canvas, output.shadow) ?? "")")
    }

    @Test func aCompositorThatGoesAwayEndsTheDisplay() throws {
        let weston = try Weston()
        let display = try Self.open(weston)
        defer { display.close() }
        weston.stop()
        let fd = try #require(display.eventDescriptor)
        #expect(!SystemCalls.pollReady([Watch(descriptor: fd, events: .readable)], timeoutMilliseconds: 5000).isEmpty)
        do {
            try display.handleEvents()
            Issue.record("no error after the compositor exited")
        } catch {
            #expect(error.displayServerGone)
            #expect(error.message.contains("went away"), "\(error.message)")
        }
    }

    @Test func noCompositorIsSaidWithThePlace() {
        do {
            _ = try WaylandDisplay.open(socket: "/nonexistent/wayland-9", fallbackSize: Size(width: 10, height: 10))
            Issue.record("opened")
        } catch {
            #expect(error.message == "wayland: no compositor answers at /nonexistent/wayland-9")
        }
    }
}
