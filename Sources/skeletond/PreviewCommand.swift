#if canImport(SkeletonPreview)
import ArgumentParser
import Dispatch
import SkeletonLayout
import SkeletonPreview
import Synchronization

struct PreviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a page on localhost that shows a layout animating, drawn again at each save.",
        discussion: """
            Open the address it prints in a browser. The page shows the layout as the screen would, drawn again \
            within 200 ms of each save of the file; while the file has problems it lists them (file, line, JSON \
            path) instead of the picture; pointing at the picture names the node under the pointer. Runs until \
            interrupted. Not in the static build of the initramfs.
            """
    )

    @Argument(help: "The layout file.")
    var layout: String

    @Option(help: "The port on 127.0.0.1.")
    var port = 8642

    @Option(help: "Output size WxH (default: the layout's canvas size).")
    var size: Size?

    func validate() throws {
        if !(1...65535).contains(port) { throw ValidationError("--port is 1 to 65535") }
    }

    func run() throws {
        var server = PreviewServer(layoutPath: layout, port: port)
        server.size = size
        try PreviewCommand.serve(server)
    }

    /// Runs `server` until it stops (SIGINT, SIGTERM), on Swift's concurrency threads while this
    /// one waits.
    static func serve(_ server: PreviewServer) throws {
        let finished = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        Task {
            do {
                try await server.run { address in print("preview: \(address)") }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
            finished.signal()
        }
        finished.wait()
        if let message = failure.withLock({ $0 }) {
            printError(["preview: \(message)"])
            throw ExitCode(1)
        }
    }
}
#endif
