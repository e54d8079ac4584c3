import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SkeletonCapture
import SkeletonLayout
import SkeletonSystem
#if canImport(SkeletonPreview)
import SkeletonPreview
#endif

struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Make a layout from a web page: what it shows becomes skeleton shapes where it shows it.",
        discussion: """
            Loads the page in Debian's headless Chromium (the chromium package), driven over the DevTools \
            protocol through a pipe, at the viewport size, waits until it has loaded (and --wait-for or --wait), \
            and writes a layout that validates: texts become text nodes with the page's lines, pictures, videos, \
            canvases and background images image nodes (circles where round), buttons and inputs blocks with their \
            corner radius, repeated siblings a list or a grid, fixed bars with a solid background views in their \
            colour. The page steers it with data-skeleton="false" (shown as is), data-skeleton="hide" \
            (hiddenWhenSkeletonActive) and data-skeleton-lines="N".
            """
    )

    @Argument(help: "A URL (http, https, file) or an HTML file.")
    var page: String

    @Option(help: "The viewport WxH, also the layout's canvas.")
    var size: Size

    @Option(help: "The layout file to write (default: standard output).")
    var out: String?

    @Option(name: .customLong("wait-for"), help: "A CSS selector the page must match before it is captured.")
    var waitFor: String?

    @Option(help: "Seconds to wait after the page has loaded.")
    var wait: Double = 0

    @Option(help: "Seconds the page may take to load.")
    var timeout: Double = 30

    @Option(help: "The layout's name (default: the page's file name).")
    var name: String?

    @Option(help: "The browser to run.")
    var browser = "chromium"

    @Flag(help: "Then open the layout in `skeletond preview` beside the page's screenshot (needs --out).")
    var preview = false

    @Option(help: "With --preview: the preview's port on 127.0.0.1.")
    var port = 8642

    func validate() throws {
        if preview && out == nil { throw ValidationError("--preview edits the file of --out") }
        if waitFor != nil && wait > 0 { throw ValidationError("--wait-for and --wait go alone") }
        if wait < 0 || wait > 600 { throw ValidationError("--wait is 0 to 600 seconds") }
        if timeout <= 0 || timeout > 600 { throw ValidationError("--timeout is more than 0, at most 600 seconds") }
    }

    func run() throws {
        var capture = PageCapture(target: page, width: size.width, height: size.height)
        capture.waitFor = waitFor
        capture.settle = wait
        capture.timeout = timeout
        capture.name = name
        capture.browser = browser
        let result: PageCapture.Result
        do { result = try capture.capture(screenshot: preview) } catch {
            printError([error.description])
            throw ExitCode(1)
        }
        let text = result.text
        guard let out else {
            print(text, terminator: "")
            return
        }
        do { try SystemCalls.writeFile(out, Array(text.utf8)) } catch {
            printError(["cannot write \(out): \(error.text)"])
            throw ExitCode(1)
        }
        guard preview else { return }
        #if canImport(SkeletonPreview)
        var server = PreviewServer(layoutPath: out, port: port)
        server.beside = result.screenshot.flatMap { Data(base64Encoded: $0) }.map { Array($0) }
        try PreviewCommand.serve(server)
        #else
        printError(["--preview: this build has no preview (the static build of the initramfs)"])
        throw ExitCode(1)
        #endif
    }
}
