import Foundation
import SkeletonDevTools
import SkeletonLayout
import SkeletonPreview
import Synchronization
import Testing

private let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// `skeletond preview` in a real browser: headless Chromium opens the page; the test edits the
/// layout file and the picture changes; it breaks the file and the problem appears with its
/// file, line and JSON path instead of the picture; it fixes it and the picture comes back; the
/// node under the pointer is named.
@Suite(.serialized, .enabled(if: chromium != nil, "needs Debian's chromium (make test installs it)"))
struct PreviewPageTests {
    static func layout(tint: String) -> String {
        """
        {"name": "tiny", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
         "appearance": {"tint": "\(tint)"},
         "presentation": {"style": "solid", "animated": false},
         "root": {"kind": "view", "children": [
           {"kind": "view", "id": "block", "frame": [10, 10, 100, 50]}
         ]}}
        """
    }

    /// Evaluates `expression` in the page until it is true, at most `seconds` (generous: the
    /// browser tests of other suites may run beside this one); the seconds it took.
    func waitFor(_ expression: String, in chrome: DevToolsPipe, seconds: Double = 30) throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try chrome.evaluate(expression, timeout: 10).boolValue == true { return Date().timeIntervalSince(start) }
            usleep(10_000)
        }
        return nil
    }

    @Test func editsShowBrokenFilesSayWhereAndThePointerNamesTheNode() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/tiny.json"
        try Self.layout(tint: "#FF0000").write(toFile: file, atomically: true, encoding: .utf8)

        let address = Mutex<String?>(nil)
        let server = Task { try await PreviewServer(layoutPath: file, port: 0).run { ready in address.withLock { $0 = ready } } }
        defer { server.cancel() }
        var url: String?
        for _ in 0..<500 where url == nil {
            url = address.withLock { $0 }
            try await Task.sleep(for: .milliseconds(10))
        }
        let page = try #require(url)

        let chrome = try DevToolsPipe.headless(executable: chromium!, profile: directory + "/profile")
        defer { chrome.close() }
        try chrome.openPage(width: 800, height: 600, timeout: 20)
        _ = try chrome.call("Page.navigate", ["url": .string(page)], timeout: 20)
        let frameShown = "window.preview && preview.frames > 0 && preview.frameVersion === preview.version"
        #expect(try waitFor(frameShown + " && preview.pixel(50, 30) === 0xFF0000", in: chrome) != nil, "the first frame")

        try Self.layout(tint: "#0000FF").write(toFile: file, atomically: true, encoding: .utf8)
        let redrawn = try waitFor("preview.pixel(50, 30) === 0x0000FF", in: chrome)
        #expect(redrawn != nil, "the saved change is drawn")
        print("preview: a save drawn after \(Int((redrawn ?? -1) * 1000)) ms (the page asked every 10 ms)")

        // A frame of three numbers, on line 5 of the file.
        try Self.layout(tint: "#0000FF").replacingOccurrences(of: "[10, 10, 100, 50]", with: "[10, 10, 100]")
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try waitFor("!document.getElementById('problems').hidden && document.getElementById('frame').hidden", in: chrome) != nil)
        let problems = try chrome.evaluate("document.getElementById('problems').textContent", timeout: 10).stringValue ?? ""
        #expect(problems.hasPrefix("\(file):5: root.children[0].frame: "), "\(problems)")

        try Self.layout(tint: "#00FF00").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try waitFor("document.getElementById('problems').hidden && " + frameShown + " && preview.pixel(50, 30) === 0x00FF00", in: chrome) != nil,
                "the picture comes back")

        let hover = """
            (() => { const c = document.getElementById('frame'), r = c.getBoundingClientRect();
              c.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + 50 * r.width / c.width, clientY: r.top + 30 * r.height / c.height, bubbles: true}));
              return document.getElementById('node').textContent; })()
            """
        #expect(try chrome.evaluate(hover, timeout: 10).stringValue == "view #block [10, 10, 100, 50]")
    }
}
