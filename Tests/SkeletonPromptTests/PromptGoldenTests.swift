import Foundation
import SkeletonContent
import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import Testing

/// Golden images of prompts over the bundled default layout: the skeleton dimmed, the panel,
/// the message shaped as labels are, bullets, a caret and a notice. Each must equal
/// Tests/Golden/prompt/NAME.png exactly; on a difference the actual image and a difference
/// image are written to .build/golden-failures. Regenerate with
/// `SKELETOND_UPDATE_GOLDENS=1 swift test --filter PromptGoldenTests`.
@Suite struct PromptGoldenTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var size: Size
        var picture: PromptPicture
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "password-empty", size: Size(width: 640, height: 400), picture: PromptPicture(message: "Please unlock disk cryptroot:")),
        Case(name: "password-three", size: Size(width: 640, height: 400), picture: PromptPicture(message: "Please unlock disk cryptroot:", bullets: 3)),
        Case(name: "password-full", size: Size(width: 640, height: 400),
             picture: PromptPicture(message: "Please unlock disk cryptroot:", bullets: 256, notice: "No more than 256 characters: the rest is not taken")),
        Case(name: "question-portrait", size: Size(width: 400, height: 640), picture: PromptPicture(message: "Check the disk now? [y/N]", text: "y")),
    ]

    @Test(arguments: cases)
    func promptsDrawAsTheirGoldens(_ c: Case) throws {
        let layout = try LayoutLoader.load(path: Self.root + "/config/layouts/default.json").get()
        let frame = PixelBuffer(size: c.size)
        FrameRenderer(layout: layout, outputSize: c.size).renderFull(at: 0, into: frame.canvas)
        let overlay = PromptOverlay(outputSize: c.size, sprites: ContentSprites())
        overlay.draw(c.picture, region: frame.canvas.bounds, into: frame.canvas)
        #expect(!overlay.awaitsSprites)
        try Self.compare(frame, name: c.name)
    }

    /// Drawing in pieces (a frame's damage) gives the same pixels as drawing it whole.
    @Test func drawingByRegionsEqualsDrawingWhole() throws {
        let layout = try LayoutLoader.load(path: Self.root + "/config/layouts/default.json").get()
        let size = Size(width: 640, height: 400)
        let picture = PromptPicture(message: "Please unlock disk cryptroot:", bullets: 5)
        let whole = PixelBuffer(size: size), pieces = PixelBuffer(size: size)
        let renderer = FrameRenderer(layout: layout, outputSize: size)
        renderer.renderFull(at: 0, into: whole.canvas)
        renderer.renderFull(at: 0, into: pieces.canvas)
        let overlay = PromptOverlay(outputSize: size, sprites: ContentSprites())
        overlay.draw(picture, region: whole.canvas.bounds, into: whole.canvas)
        for y in stride(from: 0, to: 400, by: 50) {
            for x in stride(from: 0, to: 640, by: 160) { overlay.draw(picture, region: PixelRect(x: x, y: y, width: 160, height: 50), into: pieces.canvas) }
        }
        #expect(whole.pixels == pieces.pixels)
    }

    static func compare(_ actual: PixelBuffer, name: String) throws {
        let path = root + "/Tests/Golden/prompt/\(name).png"
        if ProcessInfo.processInfo.environment["SKELETOND_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(atPath: root + "/Tests/Golden/prompt", withIntermediateDirectories: true)
            try ImageFile.write(actual.canvas, to: path, format: .png)
            return
        }
        let expected = try ImageFile.readPNG(path)
        let failures = root + "/.build/golden-failures"
        let differs = expected.width != actual.width || expected.height != actual.height || expected.pixels != actual.pixels
        guard differs else { return }
        try FileManager.default.createDirectory(atPath: failures, withIntermediateDirectories: true)
        try ImageFile.write(actual.canvas, to: failures + "/prompt-\(name)-actual.png", format: .png)
        if expected.width == actual.width && expected.height == actual.height {
            let diff = PixelBuffer(size: actual.size)
            for y in 0..<actual.height {
                for x in 0..<actual.width { diff[x, y] = actual[x, y] == expected[x, y] ? 0xC0C0C0 : 0xFF0000 }
            }
            try ImageFile.write(diff.canvas, to: failures + "/prompt-\(name)-diff.png", format: .png)
        }
        Issue.record("\(name) differs from \(path); actual and difference images in \(failures)")
    }
}
