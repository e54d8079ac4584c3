import Foundation
@testable import SkeletonDaemon
import SkeletonContent
import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import SkeletonSystem
import Testing

/// Pictures and texts are made off the loop: until they are ready their nodes show as
/// skeletons and the socket is answered; they are drawn once they arrive; one that takes too
/// long is given up and said. Stepped on a manual clock with the work held by the test.
@Suite struct OffLoopWorkTests {
    static func layout(_ node: String) -> String {
        """
        {"name": "content", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "presentation": {"style": "solid", "animated": false, "transition": {"kind": "none"}},
         "root": {"kind": "view", "skeletonable": false, "children": [\(node)]}}
        """
    }

    static let label = layout(##"{"kind": "label", "id": "status", "frame": [10, 10, 180, 40], "text": "Starting", "fontSize": 24, "color": "#000000"}"##)

    /// The layout as drawn with its pictures and texts (`sprites`) or with them as skeletons (nil).
    func drawn(_ d: SteppedDaemon, _ name: String, sprites: SpriteSource?) throws -> PixelBuffer {
        let image = PixelBuffer(size: d.screen.size)
        FrameRenderer(layout: try d.layout(name), outputSize: d.screen.size, sprites: sprites).renderFull(at: 0, into: image.canvas)
        return image
    }

    @Test func aTextBeingMadeShowsAsItsSkeletonWhileTheSocketIsAnsweredThenAppears() throws {
        let d = try SteppedDaemon(layouts: ["content": Self.label], start: "content", holdingWork: true)
        d.step(to: 101)
        let skeleton = try drawn(d, "content", sprites: nil)
        let text = try drawn(d, "content", sprites: ContentSprites())
        #expect(!skeleton.pixels.elementsEqual(text.pixels), "the label draws something else than its skeleton")
        #expect(d.work.heldCount == 1)
        #expect(d.screen.pixels.elementsEqual(skeleton.pixels), "the label shows as its skeleton while it is made")
        let client = try d.connect()
        #expect(d.request(client, #"{"command": "ping"}"#)?["pong"] == true)
        #expect(d.request(client, #"{"command": "status"}"#)?["state"] == "showing")

        d.work.release()
        d.step(to: d.clock.now)
        #expect(d.screen.pixels.elementsEqual(text.pixels), "the label is drawn once it is made")
        #expect(!d.logContains("given up"))
    }

    /// A change to a layout whose text is being made keeps the frame on screen (no step with the
    /// text as a skeleton) while the socket is answered, for at most `Screen.spriteHold`.
    @Test func aNewLookWaitsWholeOnTheOldFrameForItsTextAtMostTheHold() throws {
        let plain = Self.layout(#"{"kind": "view", "frame": [10, 10, 180, 40], "cornerRadius": 0}"#)
        let d = try SteppedDaemon(layouts: ["plain": plain, "content": Self.label], start: "plain", holdingWork: true)
        d.step(to: 101)
        let before = try drawn(d, "plain", sprites: nil)
        #expect(d.screen.pixels.elementsEqual(before.pixels))
        let client = try d.connect(), other = try d.connect()
        // The layout is read off the loop first: the show waits, a ping on another connection does not.
        client.send(#"{"command": "show", "layout": "content", "transition": {"kind": "none"}}"# + "\n")
        #expect(d.reply(client) == nil)
        #expect(d.work.heldCount == 1)
        #expect(d.request(other, #"{"command": "ping"}"#)?["pong"] == true)
        d.work.release()
        #expect(d.reply(client)?["ok"] == true)
        d.step(to: d.clock.now + 0.5)
        #expect(d.work.heldCount == 1, "the label being made")
        #expect(d.screen.pixels.elementsEqual(before.pixels), "the old frame stays while the label is made")
        #expect(d.request(other, #"{"command": "ping"}"#)?["pong"] == true)
        d.work.release()
        d.step(to: d.clock.now)
        #expect(d.screen.pixels.elementsEqual(try drawn(d, "content", sprites: ContentSprites()).pixels), "then the new look, whole")

        // Past the hold, the new look shows with its text as a skeleton.
        #expect(d.request(client, #"{"command": "update", "content": {"status": {"text": "Later"}}}"#)?["ok"] == true)
        d.step(to: d.clock.now + Screen.spriteHold + 0.1)
        #expect(d.screen.pixels.elementsEqual(try drawn(d, "content", sprites: nil).pixels))
    }

    @Test func aPictureThatTakesTooLongIsGivenUpAndSaid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slow-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let picture = PixelBuffer(width: 8, height: 8, fill: 0xFF20_40C0)
        try ImageFile.write(picture.canvas, to: directory + "/blue.png", format: .png)
        let layout = Self.layout(#"{"kind": "image", "id": "logo", "frame": [50, 25, 100, 50], "source": "\#(directory)/blue.png", "contentMode": "scaleToFill"}"#)
        let d = try SteppedDaemon(layouts: ["content": layout], start: "content", holdingWork: true)
        d.step(to: 101)
        let skeleton = try drawn(d, "content", sprites: nil)
        #expect(d.screen.pixels.elementsEqual(skeleton.pixels))
        // The deadline passes on the daemon's clock; the loop wakes for it.
        d.step(to: 100 + BackgroundSprites.deadline + 0.5)
        #expect(d.logContains("root.children[0]: not made within 10 s, given up (the node shows as a skeleton)"))
        #expect(d.work.heldCount == 0, "the job is dropped")
        d.work.release()
        d.step(to: d.clock.now + 1)
        #expect(d.screen.pixels.elementsEqual(skeleton.pixels), "the node stays a skeleton")
        #expect(d.work.jobsRun == 0)
    }

    @Test func aPictureMadeInTimeIsDrawn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("made-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try ImageFile.write(PixelBuffer(width: 8, height: 8, fill: 0xFF20_40C0).canvas, to: directory + "/blue.png", format: .png)
        let layout = Self.layout(#"{"kind": "image", "id": "logo", "frame": [50, 25, 100, 50], "source": "\#(directory)/blue.png", "contentMode": "scaleToFill"}"#)
        let d = try SteppedDaemon(layouts: ["content": layout], start: "content", holdingWork: true)
        d.step(to: 101)
        #expect(d.screen[100, 50] != 0x2040C0)
        d.step(to: 105)
        d.work.release()
        d.step(to: d.clock.now)
        #expect(d.screen[100, 50] & 0xFFFFFF == 0x2040C0)
        #expect(d.screen[10, 10] & 0xFFFFFF == 0xFFFFFF)
    }
}
