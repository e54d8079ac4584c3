import SkeletonContent
import SkeletonLayout
import SkeletonPicture
import SkeletonRender

/// What one browser is sent: on each save, the resolved tree (for the node under the pointer)
/// or the problems; then, while the layout is good, its frames as PNGs, animated on the clock
/// the screen would use, `framesPerSecond` of them.
struct PreviewFrames {
    enum Message: Sendable {
        case text(String)
        case binary([UInt8])
    }

    let watcher: LayoutWatcher
    /// The output size; nil: the layout's canvas.
    let size: Size?
    static let framesPerSecond = 15

    func run(send: (Message) async throws -> Void) async throws {
        var shown = -1
        var renderer: FrameRenderer?
        let sprites = ContentSprites()
        let clock = ContinuousClock()
        let start = clock.now
        while !Task.isCancelled {
            let snapshot = await watcher.snapshot
            if snapshot.version != shown {
                shown = snapshot.version
                switch snapshot {
                case .layout(let layout, let version):
                    let size = self.size ?? Size(width: layout.canvas.width, height: layout.canvas.height)
                    var resolver = LayoutResolver(layout: layout, outputSize: size)
                    let tree = resolver.resolve().treeDocument(layoutName: layout.name)
                    renderer = FrameRenderer(layout: layout, outputSize: size, sprites: sprites)
                    let message: JSONValue = ["type": "layout", "version": .number(Double(version)),
                                              "size": [.number(Double(size.width)), .number(Double(size.height))], "tree": tree]
                    try await send(.text(message.jsonText))
                case .problems(let problems, let version):
                    renderer = nil
                    let message: JSONValue = ["type": "problems", "version": .number(Double(version)), "problems": .array(problems.map(\.json))]
                    try await send(.text(message.jsonText))
                }
            }
            if let renderer {
                let elapsed = clock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                let frame = PixelBuffer(size: renderer.layout.outputSize)
                renderer.renderFull(at: seconds, into: frame.canvas)
                try await send(.binary(PNGEncoder.encode(frame)))
            }
            try await Task.sleep(for: .milliseconds(1000 / Self.framesPerSecond))
        }
    }
}
