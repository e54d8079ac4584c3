import Foundation
import SkeletonCapture
import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import Testing

private let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The sample pages of Tests/capture/pages captured with the real headless Chromium: the layout
/// validates, and its skeleton shapes (resolved at the page's size) stand where the page shows
/// content: every visible leaf's box is covered within 2 px, no shape lies where the page shows
/// only its background (the page's own screenshot), and the shapes' union overlaps the leaves'
/// union with an IoU of at least 0.95.
@Suite(.serialized, .enabled(if: chromium != nil, "needs Debian's chromium (make test installs it)"))
struct CapturedPageTests {
    static let size = (width: 800, height: 600)
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("capture/pages").path

    struct Coverage: CustomStringConvertible {
        var iou: Double
        var uncovered: [Rect]
        var overBackground: [Rect]
        var description: String { "IoU \(String(format: "%.3f", iou)), leaves not covered \(uncovered), shapes over background only \(overBackground)" }
    }

    /// A bitmap of the page's size.
    struct Mask {
        var bits: [Bool]
        let width: Int, height: Int
        init(width: Int, height: Int) { self.width = width; self.height = height; bits = Array(repeating: false, count: width * height) }
        mutating func fill(_ r: Rect, inset: Double = 0) { each(r, inset: inset) { bits[$0] = true } }
        func each(_ r: Rect, inset: Double, _ body: (Int) -> Void) {
            let x0 = max(0, Int((r.x + inset).rounded(.up))), y0 = max(0, Int((r.y + inset).rounded(.up)))
            let x1 = min(width, Int((r.maxX - inset).rounded(.down))), y1 = min(height, Int((r.maxY - inset).rounded(.down)))
            guard x1 > x0, y1 > y0 else { return }
            for y in y0..<y1 { for x in x0..<x1 { body(y * width + x) } }
        }
    }

    func coverage(_ page: String) throws -> Coverage {
        var capture = PageCapture(target: Self.pages + "/\(page).html", width: Self.size.width, height: Self.size.height)
        capture.browser = chromium!
        let result = try capture.capture(screenshot: true)
        guard case .success(let layout) = LayoutLoader.load(text: Array(result.text.utf8), file: "\(page).json") else {
            throw CaptureError("\(page): the layout does not validate")
        }
        var resolver = LayoutResolver(layout: layout, outputSize: Size(width: Self.size.width, height: Self.size.height))
        let shapes = resolver.resolve().items.compactMap { item -> Rect? in
            if case .skeleton(let shape) = item { return shape.rect }
            return nil
        }
        let encoded = try #require(result.screenshot)
        let png = try #require(Data(base64Encoded: encoded))
        let screenshot = try PNGDecoder.decode(Array(png))
        let background = layout.canvas.background.xrgb
        var shapeMask = Mask(width: Self.size.width, height: Self.size.height), leafMask = shapeMask
        shapes.forEach { shapeMask.fill($0) }
        result.leafBoxes.forEach { leafMask.fill($0) }
        var uncovered: [Rect] = []
        for box in result.leafBoxes {
            var covered = true
            shapeMask.each(box, inset: 2) { if !shapeMask.bits[$0] { covered = false } }
            if !covered { uncovered.append(box) }
        }
        var overBackground: [Rect] = []
        for shape in shapes {
            var content = false
            shapeMask.each(shape, inset: 2) { i in
                if screenshot.pixels[i] & 0xFFFFFF != background { content = true }
            }
            if !content { overBackground.append(shape) }
        }
        let both = zip(shapeMask.bits, leafMask.bits)
        let intersection = both.filter { $0 && $1 }.count, union = both.filter { $0 || $1 }.count
        return Coverage(iou: union == 0 ? 0 : Double(intersection) / Double(union), uncovered: uncovered, overBackground: overBackground)
    }

    @Test(arguments: ["feed", "dashboard", "kiosk-menu", "form", "rtl", "fixed-header"])
    func theSkeletonStandsWhereThePageShowsContent(page: String) throws {
        let c = try coverage(page)
        print("capture \(page): \(c)")
        #expect(c.uncovered.isEmpty, "\(page): \(c)")
        #expect(c.overBackground.isEmpty, "\(page): \(c)")
        #expect(c.iou >= 0.95, "\(page): \(c)")
    }
}
