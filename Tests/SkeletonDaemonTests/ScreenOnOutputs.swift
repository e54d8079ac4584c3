@testable import SkeletonDaemon
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import SkeletonSettings

/// The core value on monitors in memory, with no daemon: commands go to `Screen.perform`, time
/// to `Screen.advance`, and each output's `OutputCompositor` draws the frame the value says, when
/// one is owed, as the daemon's draw does. For pixel checks of transitions against the offline
/// renderer.
final class ScreenOnOutputs {
    private(set) var screen = Screen()
    let size: Size
    let world: CommandWorld
    private let outputs: [(name: String, display: MemoryDisplay, compositor: OutputCompositor)]

    /// `layouts` by name (their JSON texts); `start` shown at `now` as the daemon's start shows
    /// it; `outputLayouts` as the settings' `display.layouts`.
    init(layouts texts: [String: String], start: String?, outputs names: [String] = ["memory"],
         outputLayouts: [String: String] = [:], size: Size = Size(width: 200, height: 100), now: Double = 100) throws {
        world = try CommandWorld.reading(texts)
        self.size = size
        outputs = names.map { name in
            let display = MemoryDisplay(size: size)
            return (name, display, OutputCompositor(output: display))
        }
        screen.applySettingsLayouts(try outputLayouts.mapValues { OutputLayouts.Assigned(name: $0, layout: try layout($0)) }, now: now)
        if let start { _ = screen.showAtStart(SkeletonLook(layoutName: start, layout: try layout(start)), now: now) }
        draw(at: now)
    }

    @discardableResult
    func perform(_ command: Command, now: Double) -> CommandAnswer {
        let (answer, effects) = screen.perform(command, in: world, now: now)
        carryOut(effects)
        return answer
    }

    /// Time moves to `now`; the outputs draw the frame there when one is owed (a change, a fade
    /// or dissolve under way, an output's own dissolve).
    func draw(at now: Double) {
        carryOut(screen.advance(to: now))
        let frame = screen.session.frame(at: now)
        guard screen.needsDraw || frame?.isSteady == false || screen.outputsMove else { return }
        for output in outputs {
            output.compositor.draw(frame.map { screen.frame($0, for: output.name, now: now) })
        }
        screen.needsDraw = false
    }

    /// What `output` (the first when nil) shows.
    func pixels(of output: String? = nil) -> [UInt32] {
        (outputs.first { output == nil || $0.name == output } ?? outputs[0]).display.buffer.pixels
    }

    func pixel(_ x: Int, _ y: Int, of output: String? = nil) -> UInt32 { pixels(of: output)[y * size.width + x] & 0xFF_FFFF }

    /// The offline renderer's picture of layout `name`.
    func render(_ name: String, overrides: PresentationOverrides = PresentationOverrides(), at time: Double = 0) throws -> [UInt32] {
        let image = PixelBuffer(size: size)
        FrameRenderer(layout: try layout(name), outputSize: size, overrides: overrides).renderFull(at: time, into: image.canvas)
        return image.pixels
    }

    private func layout(_ name: String) throws -> Layout { try world.layout(name).get().layout }

    /// The effects that change what an output in memory shows: a hide's fade ends on what lies
    /// beneath (black), which shows once the display is let go.
    private func carryOut(_ effects: [ScreenEffect]) {
        for effect in effects {
            switch effect {
            case .fadeToConsole: for output in outputs { output.compositor.clearBeneath() }
            case .closeDisplay: for output in outputs { output.compositor.draw(nil) }
            default: break
            }
        }
    }
}

extension CommandWorld {
    /// The world of a test: the layouts `texts` (JSON by name; any other name is refused as the
    /// store refuses it), the shutdown settings, whether the display is lent, and the console.
    static func reading(_ texts: [String: String], shutdown: ShutdownSettings = ShutdownSettings(), deactivated: Bool = false,
                        console: Result<[UInt8], ConsoleWait.Unwaitable> = .failure(ConsoleWait.Unwaitable("it is in graphics mode"))) throws -> CommandWorld {
        var layouts: [String: Layout] = [:]
        for (name, text) in texts {
            guard case .success(let layout) = LayoutLoader.load(text: Array(text.utf8), file: "\(name).json") else { throw HarnessError(name) }
            layouts[name] = layout
        }
        return CommandWorld(layout: { name in
                                layouts[name].map { .success((name: name, layout: $0)) }
                                    ?? .failure(ProtocolError(.unknownLayout, "no layout named \"\(name)\""))
                            },
                            startLayout: nil, shutdown: shutdown, deactivated: deactivated, consoleToWaitOn: { console })
    }
}
