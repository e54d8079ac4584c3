import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonRender
import Testing

/// Texts and values by id over the real socket, the message and progress roles, psplash's
/// FIFO: what status reports and what the screen shows (against `FrameRenderer` with the same
/// content), with the clock stepped by hand.
@Suite struct ContentCommandTests {
    static let splash = ##"""
        {"name": "splash", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
         "root": {"kind": "view", "skeletonable": false, "children": [
           {"kind": "label", "id": "status", "role": "message", "frame": [0, 0, 200, 40], "text": "Starting", "fontSize": 16},
           {"kind": "progress", "id": "bar", "frame": [0, 60, 200, 10], "cornerRadius": 0, "value": 0,
            "trackColor": "#000000", "fillColor": "#FF0000", "valueAnimation": 0.5}
         ]}}
        """##

    func screenEqualsRender(_ d: SteppedDaemon, content: LayoutContent) throws -> Bool {
        let layout = try d.layout("splash")
        let expected = PixelBuffer(size: d.screen.size)
        FrameRenderer(layout: layout, outputSize: d.screen.size, content: content, sprites: d.daemon.host.sprites)
            .renderFull(at: 0, into: expected.canvas)
        return expected.pixels == d.screen.pixels
    }

    @Test func anUpdateSetsTextsAndValuesByIdAndTheBarSlides() throws {
        let d = try SteppedDaemon(layouts: ["splash": Self.splash], start: "splash")
        d.step(to: 101)
        #expect(try screenEqualsRender(d, content: LayoutContent()))
        let client = try d.connect()
        let reply = d.request(client, #"{"command": "update", "content": {"status": {"text": "Installing updates"}}, "progress": 1}"#)
        #expect(reply?["ok"] == .bool(true), "\(String(describing: reply))")
        // The slide starts with the next frame; half way through its half second the fill stands at half the bar.
        d.step(to: d.clock.now + 0.01)
        d.step(to: d.clock.now + 0.25)
        #expect(d.screen[99, 65] & 0xFFFFFF == 0xFF0000)
        #expect(d.screen[101, 65] & 0xFFFFFF == 0x000000)
        d.step(to: d.clock.now + 0.5)
        let final = LayoutContent(texts: ["status": "Installing updates"], values: ["bar": .fraction(1)])
        #expect(try screenEqualsRender(d, content: final))
        let status = d.request(client, #"{"command": "status"}"#)
        #expect(status?["content"] == final.json)
    }


    @Test func psplashsFIFODrivesTheRoles() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("psplash-\(UUID().uuidString.prefix(8))").path
        let d = try SteppedDaemon(layouts: ["splash": Self.splash], start: "splash", settings: #"{"psplash": {"fifo": "\#(fifo)"}}"#)
        defer { d.shutdown() }
        d.step(to: 101)
        let writer = FileHandle(forWritingAtPath: fifo)
        #expect(writer != nil)
        writer?.write(Data("MSG Checking the disks\0PROGRESS 40\0BOGUS\nPROGRESS 400\0".utf8))
        d.step(to: 102)
        let expected = LayoutContent(texts: ["status": "Checking the disks"], values: ["bar": .fraction(0.4)])
        #expect(try screenEqualsRender(d, content: expected))
        #expect(d.logContains("psplash: \(fifo): unknown command \"BOGUS\""))
        #expect(d.logContains("PROGRESS takes a whole number from 0 to 100, found \"400\""))
        writer?.write(Data("QUIT\0".utf8))
        d.step(to: 103)
        #expect(d.daemon.screen.session.state == .idle)
        try? writer?.close()
    }
}
