import Testing
import SkeletonLayout
@testable import SkeletonRender

/// Makes every sprite a solid square of one premultiplied colour, or fails for pictures named
/// "missing": what the renderer does with the pixels a source gives (or does not give).
final class SolidSprites: SpriteSource {
    let pixel: UInt32
    private(set) var asked = 0

    init(pixel: UInt32) { self.pixel = pixel }

    func sprite(for item: SpriteItem, outputSize: Size) -> Result<Sprite, SpriteError>? {
        asked += 1
        if case .picture(let p) = item.content, p.source == .file("missing") {
            return .failure(SpriteError(nodePath: item.nodePath, reason: "missing: no such file"))
        }
        let r = PixelRect(enclosing: item.rect)
        return .success(Sprite(pixels: PixelBuffer(width: r.width, height: r.height, fill: pixel), x: r.x, y: r.y))
    }
}

@Suite struct ContentRenderTests {
    static let still = #""presentation": {"animated": false, "style": "solid"}"#

    /// `node` under a root that is no skeleton itself (a view whose only child is not skeletonable would be one).
    static func alone(_ node: String, width: Int = 100, height: Int = 100, direction: String = "ltr") -> String {
        layoutJSON(width: width, height: height, extra: still,
                   root: #"{"kind": "view", "skeletonable": false, "children": [\#(node)]}"#)
            .replacingOccurrences(of: #""scale": "fit"}"#, with: #""scale": "fit", "direction": "\#(direction)"}"#)
    }

    static func picture(_ source: String, skeletonable: Bool = false) -> String {
        #"{"kind": "image", "frame": [10, 10, 20, 20], "skeletonable": \#(skeletonable), "source": "\#(source)", "contentMode": "scaleToFill"}"#
    }

    func draw(_ text: String, sprites: SpriteSource?, at time: Double = 0) throws -> (FrameRenderer, PixelBuffer) {
        let layout = try loadLayout(text)
        let renderer = FrameRenderer(layout: layout, sprites: sprites)
        let image = PixelBuffer(size: layout.canvas.size)
        renderer.renderFull(at: time, into: image.canvas)
        return (renderer, image)
    }

    @Test func aPictureIsBlendedPremultipliedOverWhatIsBelow() throws {
        // 50% red, premultiplied: 0x80 alpha, red 0x80. Over white: red 255, green and blue 127.
        let (_, image) = try draw(Self.alone(Self.picture("/logo.png")), sprites: SolidSprites(pixel: 0x8080_0000))
        #expect(image[15, 15] == 0xFF7F7F)
        #expect(image[9, 15] == 0xFFFFFF)
        #expect(image[30, 15] == 0xFFFFFF)
        #expect(image[29, 29] == 0xFF7F7F)
    }

    @Test func aSkeletonablePictureIsASkeleton() throws {
        let sprites = SolidSprites(pixel: 0xFF00_00FF)
        let (_, image) = try draw(layoutJSON(extra: Self.still, children: [Self.picture("/logo.png", skeletonable: true)]), sprites: sprites)
        #expect(sprites.asked == 0)
        #expect(image[15, 15] == Color.named["clouds"]!.xrgb)
    }

    @Test func aPictureThatCannotBeMadeShowsAsItsSkeletonAndIsReported() throws {
        let (renderer, image) = try draw(Self.alone(Self.picture("missing")), sprites: SolidSprites(pixel: 0xFF00_00FF))
        #expect(image[15, 15] == Color.named["clouds"]!.xrgb)
        #expect(renderer.contentProblems.map(\.description) == ["root.children[0]: missing: no such file (the node shows as a skeleton)"])
    }

    static func bar(value: String, direction: String = "ltr") -> String {
        alone(##"{"kind": "progress", "id": "bar", "frame": [0, 0, 100, 10], "skeletonable": false, "cornerRadius": 0, "trackColor": "#000000", "fillColor": "#FF0000", "value": \##(value)}"##,
              height: 20, direction: direction)
    }

    @Test func aBarFillsFromTheLeadingEdge() throws {
        let (_, image) = try draw(Self.bar(value: "0.25"), sprites: nil)
        #expect(image[0, 5] == 0xFF0000)
        #expect(image[24, 5] == 0xFF0000)
        #expect(image[25, 5] == 0x000000)
        #expect(image[99, 5] == 0x000000)
        #expect(image[50, 15] == 0xFFFFFF)
        let (_, rtl) = try draw(Self.bar(value: "0.25", direction: "rtl"), sprites: nil)
        #expect(rtl[99, 5] == 0xFF0000)
        #expect(rtl[75, 5] == 0xFF0000)
        #expect(rtl[74, 5] == 0x000000)
    }

    @Test func anIndeterminateBarSlidesAndSaysWhereItChanged() throws {
        let (renderer, first) = try draw(Self.bar(value: #""indeterminate""#), sprites: nil, at: 0.75)
        #expect(renderer.isAnimating)
        // Half a period: the 30-pixel segment has travelled half of 130 pixels from x = -30.
        #expect(first[34, 5] == 0x000000)
        #expect(first[36, 5] == 0xFF0000)
        #expect(first[64, 5] == 0xFF0000)
        #expect(first[66, 5] == 0x000000)
        let rects = renderer.changedRects(from: 0.75, to: 0.8)
        #expect(rects.count == 1)
        #expect(rects.first.map { $0.y == 0 && $0.height == 10 && $0.x <= 35 && $0.maxX >= 70 } == true)
    }

    @Test func aNewValueRedrawsOnlyTheBarAndSlidesToIt() throws {
        let text = layoutJSON(width: 100, height: 60, extra: #""presentation": {"animated": true, "style": "solid"}"#, children: [
            #"{"kind": "view", "frame": [0, 30, 100, 30]}"#,
            ##"{"kind": "progress", "id": "bar", "frame": [0, 0, 100, 10], "skeletonable": false, "cornerRadius": 0, "trackColor": "#000000", "fillColor": "#FF0000", "value": 0, "valueAnimation": 1}"##,
        ])
        let layout = try loadLayout(text)
        let image = PixelBuffer(size: layout.canvas.size)
        let before = FrameRenderer(layout: layout)
        before.renderFull(at: 2, into: image.canvas)
        let after = FrameRenderer(layout: layout, content: LayoutContent(values: ["bar": .fraction(1)]), reusing: before)
        #expect(after.continueFrom(before))
        #expect(after.contentMoves)
        // The slide starts with the first frame after the change; only the bar and the pulsing block change.
        let rects = after.render(at: 2.1, into: image.canvas)
        #expect(rects.contains { $0 == PixelRect(x: 0, y: 0, width: 100, height: 10) })
        #expect(!rects.contains { $0.intersects(PixelRect(x: 0, y: 10, width: 100, height: 20)) })
        #expect(image[1, 5] == 0x000000)
        // Half way through (eased in and out: exactly half).
        _ = after.render(at: 2.6, into: image.canvas)
        #expect(image[49, 5] == 0xFF0000)
        #expect(image[51, 5] == 0x000000)
        _ = after.render(at: 3.2, into: image.canvas)
        #expect(image[99, 5] == 0xFF0000)
        #expect(!after.contentMoves)
    }

    @Test func aChangedLayoutIsNotContinued() throws {
        let a = FrameRenderer(layout: try loadLayout(Self.bar(value: "0.5")))
        let image = PixelBuffer(width: 100, height: 20)
        withExtendedLifetime(image) { _ = a.renderFull(at: 0, into: image.canvas) }
        let other = try loadLayout(layoutJSON(width: 100, height: 20, children: [#"{"kind": "view", "frame": [0, 0, 10, 10]}"#]))
        #expect(!FrameRenderer(layout: other).continueFrom(a))
    }
}
