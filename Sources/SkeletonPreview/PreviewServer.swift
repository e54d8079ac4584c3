import Hummingbird
import HummingbirdWebSocket
import SkeletonLayout
import SkeletonSystem
import Synchronization

/// `skeletond preview`: a page on localhost showing a layout file animating as the screen would,
/// drawn again within 200 ms of each save (the file is read every 50 ms, frames go out 15 a
/// second over a WebSocket), its problems listed with file, line and JSON path instead of the
/// picture, and the node under the pointer named. Hummingbird (on SwiftNIO) serves the page
/// and the WebSocket, which only the page's own origin may open (`PreviewOrigin`).
public struct PreviewServer: Sendable {
    public var layoutPath: String
    public var port: Int
    /// The output size; nil: the layout's canvas.
    public var size: Size?
    /// A picture shown beside the preview (`capture --preview`: the page's screenshot, PNG).
    public var beside: [UInt8]?
    /// Where the refused WebSocket requests are said (default: standard error).
    public var log: @Sendable (String) -> Void = { FileDescriptor.standardError.writeAll(Array(($0 + "\n").utf8)) }

    public init(layoutPath: String, port: Int) {
        self.layoutPath = layoutPath
        self.port = port
    }

    /// Serves until SIGINT or SIGTERM (or the task is cancelled); `ready` is told the address
    /// once the server listens (port 0: one the system chose).
    public func run(ready: @escaping @Sendable (String) -> Void) async throws {
        let watcher = LayoutWatcher(path: layoutPath)
        await watcher.poll()
        let page = PreviewPage.html(file: layoutPath, beside: beside != nil)
        let beside = self.beside
        let size = self.size
        let router = Router()
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.get("/beside.png") { _, _ -> Response in
            guard let beside else { return Response(status: .notFound) }
            return Response(status: .ok, headers: [.contentType: "image/png"], body: .init(byteBuffer: ByteBuffer(bytes: beside)))
        }
        // The port chosen by the system when asked for 0, once the server listens.
        let origin = Mutex(PreviewOrigin(port: port))
        let refused = RefusedConnections()
        let log = self.log
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: .init(http1: .init(additionalChannelHandlers: [RefusedUpgradeStatus(refused: refused)]))) { request, channel, _ in
                guard request.path == "/live" else { return .dontUpgrade }
                let policy = origin.withLock { $0 }
                guard policy.allows(request.headerFields[.origin]) else {
                    log(policy.refusal(of: request.headerFields[.origin]))
                    refused.add(channel)
                    return .dontUpgrade
                }
                return .upgrade([:]) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        // Until the browser goes away.
                        group.addTask { for try await _ in inbound {} }
                        group.addTask {
                            try await PreviewFrames(watcher: watcher, size: size).run { message in
                                switch message {
                                case .text(let text): try await outbound.write(.text(text))
                                case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                }
                            }
                        }
                        try await group.next()
                        group.cancelAll()
                    }
                }
            },
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "skeletond preview"),
            onServerRunning: { channel in
                let listening = channel.localAddress?.port ?? port
                origin.withLock { $0.port = listening }
                ready("http://127.0.0.1:\(listening)/")
            }
        )
        let watching = Task { await watcher.run() }
        defer { watching.cancel() }
        try await app.runService()
    }
}
