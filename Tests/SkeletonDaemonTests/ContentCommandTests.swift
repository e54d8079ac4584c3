import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonContent
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import Testing

/// Texts and values by id, and the message and progress roles from psplash's FIFO: what the
/// screen shows (against `FrameRenderer` with the same content) and what status reports. An
/// update goes to the screen as a value; psplash's lines come through a real FIFO to a stepped daemon.
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

    /// A value test: the update goes to the screen and the outputs draw it, with no daemon.
    @Test func anUpdateSetsTextsAndValuesByIdAndTheBarSlides() throws {
        let sprites = ContentSprites()
        let s = try ScreenOnOutputs(layouts: ["splash": Self.splash], start: "splash", sprites: sprites)
        func rendered(_ content: LayoutContent) throws -> [UInt32] {
            let expected = PixelBuffer(size: s.size)
            FrameRenderer(layout: try s.layout("splash"), outputSize: s.size, content: content, sprites: sprites).renderFull(at: 0, into: expected.canvas)
            return expected.pixels
        }
        #expect(s.pixels() == (try rendered(LayoutContent())))
        let request = try RequestDecoder.decode(line: Array(#"{"command": "update", "content": {"status": {"text": "Installing updates"}}, "progress": 1}"#.utf8)).get()
        #expect(s.perform(request.command, now: 100).fields?["updated"] == true)
        // The slide starts with the next frame; half way through its half second the fill stands at half the bar.
        s.draw(at: 100)
        s.draw(at: 100.25)
        #expect(s.pixel(99, 65) == 0xFF0000)
        #expect(s.pixel(101, 65) == 0x000000)
        s.draw(at: 101)
        let final = LayoutContent(texts: ["status": "Installing updates"], values: ["bar": .fraction(1)])
        #expect(s.pixels() == (try rendered(final)))
        let look = try #require(s.screen.session.lookInForce)
        var resolver = LayoutResolver(layout: look.layout, content: look.content)
        #expect(Daemon.contentInForce(resolver.resolve().root) == final, "what status reports")
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
