import SkeletonDevTools
import SkeletonLayout
import SkeletonSystem

/// `skeletond capture`: a web page loaded in headless Chromium at a viewport size, waited for,
/// scanned (`PageScanScript`) and written as a layout (`CapturedLayout`, `LayoutText`) that the
/// layout loader accepts; anything else is a `CaptureError` and no layout.
public struct PageCapture: Sendable {
    /// A URL (`http:`, `https:`, `file:`) or a path to an HTML file.
    public var target: String
    public var width: Int
    public var height: Int
    /// A CSS selector the page must match before it is scanned.
    public var waitFor: String?
    /// Seconds to wait after the page has loaded (for what it draws late).
    public var settle: Double = 0
    /// Seconds the page may take to load (and to match `waitFor`).
    public var timeout: Double = 30
    /// The layout's name (default: the page file's or host's name).
    public var name: String?
    public var browser = "chromium"

    public init(target: String, width: Int, height: Int) {
        self.target = target
        self.width = width
        self.height = height
    }

    /// What a capture made: the layout's text, checked by the layout loader; the boxes of the
    /// page's visible leaves that the skeleton stands for (texts' lines, pictures, controls; not
    /// fixed bars, `data-skeleton="false"` or `"hide"` elements), in viewport pixels; and, when
    /// asked, the page's screenshot (PNG, base64, as the DevTools protocol gives it).
    public struct Result: Sendable {
        public var text: String
        public var leafBoxes: [Rect]
        public var screenshot: String?
    }

    /// The page's layout as the text to write, checked by the layout loader.
    public func layoutText() throws(CaptureError) -> String { try capture(screenshot: false).text }

    public func capture(screenshot: Bool) throws(CaptureError) -> Result {
        let (page, picture) = try scan(screenshot: screenshot)
        guard !page.elements.isEmpty else { throw CaptureError("\(target): nothing visible on the page at \(width)x\(height)") }
        var layout = CapturedLayout(page: page, name: name ?? defaultName)
        let text = LayoutText.write(layout.json())
        if case .failure(let error) = LayoutLoader.load(text: Array(text.utf8), file: "\(layout.name).json") {
            throw CaptureError("\(target): the captured layout is not valid, not written:\n" + error.lines.joined(separator: "\n"))
        }
        let leaves = page.elements.flatMap(\.leaves).filter { !$0.hidden && ![.bar, .content].contains($0.kind) }
        return Result(text: text, leafBoxes: leaves.flatMap { $0.kind == .text && !$0.lines.isEmpty ? $0.lines : [$0.rect] },
                      screenshot: picture)
    }

    /// The page as the scan script saw it, and its screenshot when asked.
    func scan(screenshot: Bool) throws(CaptureError) -> (ScannedPage, String?) {
        let url = try self.url
        // A profile of its own for each capture: Chromium hands a page to the instance that holds
        // a profile's lock and exits, and removing a shared one raced with the next start.
        let profile: String
        do { profile = try SystemCalls.makeTemporaryDirectory(prefix: "/tmp/skeletond-capture-") } catch {
            throw CaptureError("cannot make a browser profile: \(error.text)")
        }
        defer {
            if let remover = try? SystemCalls.spawn(["rm", "-rf", profile], descriptors: [:], quiet: true) {
                _ = SystemCalls.waitForEnd(remover)
            }
        }
        let chrome: DevToolsPipe
        do { chrome = try DevToolsPipe.headless(executable: browser, profile: profile) } catch { throw CaptureError(error.description) }
        defer { chrome.close() }
        do {
            return try scan(in: chrome, url: url, screenshot: screenshot)
        } catch let error as CaptureError {
            throw error
        } catch let error as DevToolsError {
            throw CaptureError(error.description)
        } catch {
            throw CaptureError("\(error)")
        }
    }

    private func scan(in chrome: DevToolsPipe, url: String, screenshot: Bool) throws -> (ScannedPage, String?) {
        try chrome.openPage(width: width, height: height, timeout: timeout)
        let navigation = try chrome.call("Page.navigate", ["url": .string(url)], timeout: timeout)
        if let failure = navigation["errorText"]?.stringValue {
            throw CaptureError("\(target): the page did not load: \(failure)")
        }
        try waitUntil("the page to finish loading", "document.readyState === 'complete'", chrome)
        if let selector = waitFor {
            try waitUntil("\(selector) to appear", "!!document.querySelector(\(JSONValue.string(selector).jsonText))", chrome)
        }
        _ = try chrome.evaluate("document.fonts.ready.then(() => true)", timeout: timeout)
        if settle > 0 { SystemCalls.sleep(seconds: settle) }
        let script = PageScanScript.source(pseudoElementBoxes: try PseudoElementBoxes.measure(in: chrome, timeout: timeout))
        guard let text = try chrome.evaluate(script, timeout: timeout).stringValue,
              let value = try? JSONValue.parse(Array(text.utf8)) else {
            throw CaptureError("\(target): the page scan returned nothing")
        }
        let page = try ScannedPage(value)
        guard screenshot else { return (page, nil) }
        let picture = try chrome.call("Page.captureScreenshot", ["format": "png"], timeout: timeout)["data"]?.stringValue
        return (page, picture)
    }

    private func waitUntil(_ what: String, _ condition: String, _ chrome: DevToolsPipe) throws {
        let deadline = SystemCalls.monotonicSeconds() + timeout
        while try chrome.evaluate(condition, timeout: timeout).boolValue != true {
            guard SystemCalls.monotonicSeconds() < deadline else {
                throw CaptureError("\(target): waited \(JSONValue.formatNumber(timeout)) s for \(what)")
            }
            SystemCalls.sleep(seconds: 0.05)
        }
    }

    private var url: String {
        get throws(CaptureError) {
            if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("file://") { return target }
            guard SystemCalls.fileExists(target) else { throw CaptureError("\(target): no such file (or a URL without http://, https:// or file://)") }
            let absolute = target.hasPrefix("/") ? target : (SystemCalls.currentDirectory() ?? "") + "/" + target
            return "file://" + absolute.split(separator: "/", omittingEmptySubsequences: false).map { component in
                String(component).addingPercentEncodingForPath()
            }.joined(separator: "/")
        }
    }

    private var defaultName: String {
        let last = target.split(separator: "/").last.map(String.init) ?? "page"
        let stem = last.split(separator: ".").first.map(String.init) ?? last
        let allowed = stem.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        return allowed.isEmpty ? "page" : String(String.UnicodeScalarView(allowed))
    }
}

extension String {
    /// Percent-encoding of what a URL path may not hold as is.
    func addingPercentEncodingForPath() -> String {
        var out = ""
        for byte in utf8 {
            let c = Character(UnicodeScalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-._~!$&'()*+,;=:@".contains(c)) { out.append(c) } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    private func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
