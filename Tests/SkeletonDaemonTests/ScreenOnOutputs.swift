@testable import SkeletonDaemon
import SkeletonDisplay
import SkeletonLayout
import SkeletonLog
import SkeletonPrompt
import SkeletonProtocol
import SkeletonRender
import SkeletonSettings

/// The core value on monitors in memory, with no daemon: commands go to `Screen.perform`, time
/// to `Screen.advance`, and each output's `OutputCompositor` draws the frame the value says, when
/// one is owed, as the daemon's draw does, with the question on screen over it. The boot's
/// questions come in as the daemon takes them (`askPlymouth`, `offer`) and are typed through a
/// `PromptDesk` on keys given by hand; what the effects send out is kept in `sent`. For pixel
/// checks against the offline renderer.
final class ScreenOnOutputs {
    private(set) var screen = Screen()
    let size: Size
    let world: CommandWorld
    private let outputs: [(name: String, display: MemoryDisplay, compositor: OutputCompositor)]
    /// The keyboards and what is typed, as the daemon's.
    let desk: PromptDesk
    let keys = HandKeys()
    /// `deactivate` lent the display to an app, until `reactivate` (the host's `deactivated`).
    private(set) var lent = false
    /// The display is let go (to the console, to an app, or hidden), until taken back (the
    /// host's `released`).
    private(set) var released = false
    /// Plymouth's replies and the answers typed, in the order the effects sent them.
    private(set) var sent: [Sent] = []
    /// What the effects logged, as the daemon's logger writes it (`<N>` and the escaped text).
    let lines = LogLines()
    private let logger: Logger

    enum Sent: Equatable {
        case reply(PlymouthTicket, PlymouthReply)
        /// What was typed, sent to the question's asker.
        case answer(QuestionQueue.Asker, String)
    }

    /// `layouts` by name (their JSON texts); `start` shown at `now` as the daemon's start shows
    /// it; `outputLayouts` as the settings' `display.layouts`.
    /// `sprites`: the pictures and texts are made at once (nil: they show as skeletons).
    init(layouts texts: [String: String], start: String?, outputs names: [String] = ["memory"],
         outputLayouts: [String: String] = [:], size: Size = Size(width: 200, height: 100), sprites: SpriteSource? = nil,
         now: Double = 100) throws {
        world = try CommandWorld.reading(texts)
        self.size = size
        outputs = names.map { name in
            let display = MemoryDisplay(size: size)
            return (name, display, OutputCompositor(output: display, sprites: sprites))
        }
        let keys = self.keys, lines = self.lines
        desk = PromptDesk(openKeys: { keys })
        logger = Logger(level: .debug, sink: { lines.add($0) })
        screen.applySettingsLayouts(try outputLayouts.mapValues { OutputLayouts.Assigned(name: $0, layout: try layout($0)) }, now: now)
        if let start { _ = screen.showAtStart(SkeletonLook(layoutName: start, layout: try layout(start)), now: now) }
        draw(at: now)
    }

    /// Outputs in memory stay open when let go (`DisplayHost.close` keeps a memory display), so
    /// the display is held for questions, as the daemon says it, unless it is lent.
    var displayHeld: Bool { !lent }

    @discardableResult
    func perform(_ command: Command, now: Double) -> CommandAnswer {
        var world = self.world
        world.deactivated = lent
        let (answer, effects) = screen.perform(command, in: world, now: now)
        carryOut(effects)
        return answer
    }

    /// Time moves to `now`; the outputs draw the frame there when one is owed (a change, a fade
    /// or dissolve under way, an output's own dissolve).
    func draw(at now: Double) {
        carryOut(screen.advance(to: now))
        let frame = screen.session.frame(at: now)
        let contentMoves = frame != nil && outputs.contains { $0.compositor.contentMoves }
        guard screen.needsDraw || frame?.isSteady == false || screen.outputsMove || contentMoves else { return }
        let prompt = picture
        for output in outputs {
            output.compositor.draw(frame.map {
                var mapped = screen.frame($0, for: output.name, now: now)
                mapped.prompt = prompt
                return mapped
            })
        }
        screen.needsDraw = false
    }

    /// The texts logged, without their level.
    var log: [String] { lines.all.map { String($0.drop { $0 != ">" }.dropFirst().dropLast()) } }

    // MARK: Questions and keys

    /// The question on screen as it shows, with what is typed.
    var picture: PromptPicture? { desk.picture(of: screen.questions.current, notice: screen.questions.notice) }

    /// A Plymouth client's password or question; the reply given at once, if any.
    @discardableResult
    func askPlymouth(_ prompt: Prompt, ticket: PlymouthTicket, now: Double) -> PlymouthReply? {
        let (reply, effects) = screen.askPlymouth(prompt, ticket: ticket, displayHeld: displayHeld, keyboards: { desk.readKeys() }, now: now)
        carryOut(effects)
        return reply
    }

    @discardableResult
    func watchKeystroke(_ keys: String?, ticket: PlymouthTicket, now: Double) -> PlymouthReply? {
        let (reply, effects) = screen.watchKeystroke(keys, ticket: ticket, displayHeld: displayHeld, keyboards: { desk.readKeys() }, now: now)
        carryOut(effects)
        return reply
    }

    /// The password agent's open asks.
    func offer(_ asks: [PasswordAsk], now: Double) {
        carryOut(screen.offer(asks, displayHeld: displayHeld, keyboards: { desk.readKeys() }, now: now))
    }

    func change(_ change: (inout QuestionQueue) -> [QuestionQueue.Effect]) { carryOut(screen.changeQuestions(change)) }

    func press(_ action: KeyAction, now: Double) { carryOut(desk.press(action, on: &screen, now: now)) }

    func type(_ text: String, now: Double) {
        for character in text {
            let bytes = Array(String(character).utf8)
            bytes.withUnsafeBytes { press(.character($0), now: now) }
        }
    }

    /// The keyboards the desk reads changed to `count` (one unplugged, or plugged in).
    func keyboardsChanged(to count: Int, now: Double) {
        keys.count = count
        change { $0.keyboardsChanged(count, now: now) }
    }

    /// What `output` (the first when nil) shows.
    func pixels(of output: String? = nil) -> [UInt32] { buffer(of: output).pixels }

    /// Frames the first output drew.
    var framesDrawn: Int { outputs[0].compositor.framesDrawn }

    func buffer(of output: String? = nil) -> PixelBuffer {
        (outputs.first { output == nil || $0.name == output } ?? outputs[0]).display.buffer
    }

    func pixel(_ x: Int, _ y: Int, of output: String? = nil) -> UInt32 { pixels(of: output)[y * size.width + x] & 0xFF_FFFF }

    /// The offline renderer's picture of layout `name`.
    func render(_ name: String, overrides: PresentationOverrides = PresentationOverrides(), at time: Double = 0) throws -> [UInt32] {
        try image(name, overrides: overrides, at: time).pixels
    }

    func image(_ name: String, overrides: PresentationOverrides = PresentationOverrides(), at time: Double = 0) throws -> PixelBuffer {
        let image = PixelBuffer(size: size)
        FrameRenderer(layout: try layout(name), outputSize: size, overrides: overrides).renderFull(at: time, into: image.canvas)
        return image
    }

    func layout(_ name: String) throws -> Layout { try world.layout(name).get().layout }

    /// The effects, carried out as the daemon does for outputs in memory: a hide's fade ends on
    /// what lies beneath (black), which shows once the display is let go; the questions' replies
    /// and answers are kept, what is typed wiped, the keyboards let go.
    private func carryOut(_ effects: [ScreenEffect]) {
        for effect in effects {
            switch effect {
            case .fadeToConsole: for output in outputs { output.compositor.clearBeneath() }
            case .closeDisplay:
                released = true
                for output in outputs { output.compositor.draw(nil) }
            case .releaseDisplay: released = true
            case .deactivateDisplay:
                lent = true
                released = true
            case .reactivateDisplay: lent = false
            case .reacquireDisplay: if !lent { released = false }
            case .replyPlymouth(let ticket, let reply): sent.append(.reply(ticket, reply))
            case .sendAnswer(let question):
                sent.append(.answer(question.asker, desk.entry.visibleText))
                desk.entry.clear()
            case .clearEntry: desk.entry.clear()
            case .stopReadingKeys: desk.stopReading()
            case .consoleForQuestions(let needed): carryOut(screen.consoleNeededForQuestions(needed))
            case .log(let level, let line): logger.log(level, line)
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
