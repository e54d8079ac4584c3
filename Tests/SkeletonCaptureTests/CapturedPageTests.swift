import Foundation
import SkeletonCapture
import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import Testing

private let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The sample pages of Tests/capture/pages captured with the real headless Chromium: the layout
/// validates, and its skeleton shapes (resolved at the page's size, within their clips) stand
/// where the page shows content: every visible leaf box (texts' lines, pictures, controls,
/// boxes painted by CSS alone, painting pseudo-elements) is at least half covered, at least
/// 95 % of the shapes' pixels lie on content (the page's own screenshot differs from its
/// background there, or a leaf box is there), and the shapes' union overlaps the leaves' union
/// with an IoU of at least 0.95. Each page's figures are printed, one line per page.
@Suite(.serialized, .enabled(if: chromium != nil, "needs Debian's chromium (make test installs it)"))
struct CapturedPageTests {
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("capture/pages").path

    func coverage(_ page: SamplePage) throws -> SkeletonCoverage {
        var capture = PageCapture(target: Self.pages + "/\(page.name).html", width: page.width, height: page.height)
        capture.browser = chromium!
        capture.waitFor = page.waitFor
        let result = try capture.capture(screenshot: true)
        guard case .success(let layout) = LayoutLoader.load(text: Array(result.text.utf8), file: "\(page.name).json") else {
            throw CaptureError("\(page.name): the layout does not validate")
        }
        var resolver = LayoutResolver(layout: layout, outputSize: Size(width: page.width, height: page.height))
        let shapes = resolver.resolve().skeletonShapes.map { $0.rect.intersection($0.clip) }
        let png = try #require(result.screenshot.flatMap { Data(base64Encoded: $0) })
        let screenshot = try PNGDecoder.decode(Array(png))
        try #require(screenshot.width == page.width && screenshot.height == page.height)
        return SkeletonCoverage(shapes: shapes, leaves: result.leafBoxes, screenshot: screenshot.pixels,
                                background: layout.canvas.background.xrgb, width: page.width, height: page.height)
    }

    @Test(arguments: SamplePage.all)
    func theSkeletonStandsWhereThePageShowsContent(page: SamplePage) throws {
        let c = try coverage(page)
        print("capture \(page.name) \(page.width)x\(page.height): \(c)")
        #expect(c.boxes > 0 && c.lessThanHalfCovered.isEmpty, "\(page.name): \(c)")
        #expect(c.onContentShare >= 0.95, "\(page.name): \(c)")
        #expect(c.iou >= 0.95, "\(page.name): \(c)")
    }
}
