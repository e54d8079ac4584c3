import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// What is on screen and what will be, as one value: the session (the look, a pending show, fades
/// and dissolves), the content commands left in force and the outputs' own layouts, monitors
/// dissolving in, a new look held back while its pictures and texts are made, the questions asked
/// on it, the hand-over to an app, the way down and the hidden mark. Each change (a command, a
/// question or key, a hotplug event, time) is a transition that returns the effects for the
/// daemon to carry out, in order; nothing here touches a descriptor, a file or a clock.
struct Screen {
    private(set) var session = Session()
    /// Overrides, texts and values, message and progress, and the outputs' own layouts.
    private(set) var content = ScreenContent()
    private(set) var held: HeldLook?
    /// After `deactivate`: the app's word that it has drawn, awaited.
    private(set) var handOver = HandOverWatch()
    /// Set by `shutdown`: the shutdown layout stays until the power is off.
    private(set) var goingDown: GoingDown?
    /// A frame is owed for a change besides time.
    var needsDraw = false
    /// Whether the hidden mark's file was last written (true) or removed (false).
    private(set) var hiddenMarkWritten: Bool?
    /// A hide waiting for the text console to show something (`hide --after-console`).
    private(set) var consoleWait: ConsoleWait?
    /// Monitors plugged in while the skeleton shows, dissolving in.
    private(set) var arrivals = OutputArrivals()
    /// The boot's questions on the skeleton, changed through `changeQuestions`.
    private(set) var questions = QuestionQueue()
    /// The display is let go to the console for a question left to its own prompt.
    private(set) var steppedAsideForQuestions = false

    /// How long a frame already on screen stays while a new look's pictures and texts are made
    /// (a shutdown layout's message, a new layout's labels): the change then appears whole rather
    /// than in two steps. Past it, what is not ready shows as its skeleton. Under QEMU TCG on a
    /// loaded machine the shutdown layout's message took over 1 s to shape; the old frame
    /// staying a little longer is better than a message seen as a grey bar first.
    static let spriteHold = 2.0

    /// A show, whoever asks (the control socket, Plymouth's clients, the start layout, the way down).
    mutating func show(_ look: SkeletonLook, delay: Double, transition: TransitionSpec, now: Double) -> (Session.ShowOutcome, [ScreenEffect]) {
        let outcome = session.show(look, delay: delay, transition: transition, now: now)
        consoleWait = nil
        content.shows(look)
        needsDraw = true
        var effects: [ScreenEffect] = outcome == .pending ? [] : [.reacquireDisplay]
        if outcome == .shown { effects += appeared() }
        effects.append(.log(.info, "show \(look.layoutName): \(outcome.rawValue)"))
        return (outcome, effects)
    }

    /// The start layout, shown at once as the daemon starts (the display is being opened for it).
    mutating func showAtStart(_ look: SkeletonLook, now: Double) -> [ScreenEffect] {
        _ = session.show(look, delay: 0, transition: .none, now: now)
        return appeared()
    }

    /// A change of the look shown (or pending) that keeps the state: dissolves with `transition`
    /// when it redraws everything; false while nothing is shown.
    @discardableResult
    mutating func update(_ look: SkeletonLook, transition: TransitionSpec, now: Double) -> Bool {
        let changed = session.update(look, transition: transition, now: now)
        if changed { needsDraw = true }
        return changed
    }

    /// `layout` shown on `output` alone (a show or update naming it), dissolving there over
    /// `transition` (nil: the layout's own) when something is shown.
    mutating func assign(_ layout: OutputLayouts.Assigned, to output: String, transition: TransitionSpec?, now: Double) {
        content.outputLayouts.assign(layout, to: output, byRequest: true, transition: transition ?? layout.layout.presentation.transition,
                                     showing: onScreen, now: now)
    }

    /// The settings' `display.layouts`, at start and after a reload (those a request set stay).
    mutating func applySettingsLayouts(_ layouts: [String: OutputLayouts.Assigned], now: Double) {
        content.outputLayouts.applySettings(layouts, now: now)
        needsDraw = true
    }

    /// An update while nothing shows: kept for the next show when it asks to be (`keep`), else
    /// refused. Nil while something shows: the caller loads what it names and calls `update(_:look:outputLayout:now:)`.
    mutating func updateWhileHidden(_ update: UpdateRequest) -> Result<Void, ProtocolError>? {
        guard session.state == .idle else { return nil }
        guard update.keep else { return .failure(ProtocolError(.notShowing, "update while nothing is shown: use show first")) }
        content.keep(update)
        return .success(())
    }

    /// An update while something shows: `look` (the layout and overrides it names, as loaded)
    /// takes its texts, values, message and progress, and `outputLayout` goes to the output it
    /// names; what changes dissolves over the update's transition. An update that changes nothing
    /// on screen (a message for a layout without a message node, the same value again) owes no
    /// frame. Refused with nothing changed when it names what the layout does not have.
    mutating func update(_ update: UpdateRequest, look: SkeletonLook, outputLayout: OutputLayouts.Assigned?,
                         now: Double) -> Result<(look: SkeletonLook, effects: [ScreenEffect]), ProtocolError> {
        var look = look
        switch ScreenContent.change(update, for: look.layout) {
        case .success(let change): look.content = look.content.merging(change)
        case .failure(let error): return .failure(error)
        }
        content.keep(update)
        content.updates(look)
        if let output = update.output, let outputLayout { assign(outputLayout, to: output, transition: update.transition, now: now) }
        if look != session.lookInForce || update.output != nil {
            self.update(look, transition: update.transition ?? look.presentation.transition, now: now)
            needsDraw = true
        }
        return .success((look, (onScreen ? [.reacquireDisplay] : []) + [.appeared(look)]))
    }

    /// `deactivate` let the display go to an app: nothing of the skeleton is seen, so open
    /// questions go to their askers; the app's word that it has drawn is awaited while it shows.
    mutating func deactivated(now: Double) -> [ScreenEffect] {
        let effects = changeQuestions { $0.withdraw() }
        if session.state == .showing { handOver.began(at: now) }
        return [.log(.info, "deactivated; the display is let go until reactivate")] + effects
    }

    /// `reactivate`: the hand-over is over; the display is taken back and drawn whole when it
    /// was let go (`wasDeactivated`) and something shows.
    mutating func reactivated(wasDeactivated: Bool) -> [ScreenEffect] {
        handOver.ended()
        guard wasDeactivated else { return [] }
        needsDraw = true
        return (onScreen ? [.reacquireDisplay] : []) + [.log(.info, "reactivated")]
    }

    /// `shutdown`: the system goes down (`mode`); no hand-over is awaited any more. Returns
    /// whether it was already going down.
    mutating func goDown(_ mode: ShutdownMode) -> Bool {
        let already = goingDown != nil
        goingDown = GoingDown(mode: mode)
        handOver.ended()
        return already
    }

    /// A hide, whoever asks: the display is let go (or handed over with the frame retained)
    /// once the skeleton has gone.
    mutating func hide(transition: TransitionSpec, retain: Bool, now: Double) -> (Session.HideOutcome, [ScreenEffect]) {
        let outcome = session.hide(transition: transition, retain: retain, now: now)
        consoleWait = nil
        handOver.ended()
        needsDraw = true
        var effects: [ScreenEffect] = [.log(.info, "hide: \(outcome.rawValue)")]
        switch outcome {
        case .retained:
            effects += markHidden(true)
            effects += [.releaseDisplay(retainingPicture: true), .lastChanceForStartFrames]
        case .hiding:
            effects.append(.fadeToConsole)
        case .cancelled:
            effects += markHidden(true)
        case .hidden:
            effects += disappeared(retained: false)
        case .alreadyHidden:
            break
        }
        return (outcome, effects)
    }

    /// A hide once the text console shows something it does not show now (`shownAtHide`, its cells):
    /// the skeleton stays (and moves) meanwhile, at most `limit` seconds. Only while it shows; the
    /// caller hides at once when the console is in graphics mode (a getty's start would force the
    /// console's own mode over the skeleton then) or cannot be read.
    mutating func hideAfterConsole(transition: TransitionSpec, limit: Double, shownAtHide: [UInt8], now: Double) -> [ScreenEffect] {
        guard session.state == .showing, goingDown == nil else { return [] }
        consoleWait = ConsoleWait(transition: transition, since: now, limit: limit, shownAtHide: shownAtHide)
        return [.log(.info, "hide: once the console shows something new (at most \(JSONValue.formatNumber(limit)) s)")]
    }

    /// The console looked at while a hide waits for it: its cells now (nil: unreadable). The
    /// hide happens once it shows something new, or at the wait's deadline; the way down ends
    /// the wait.
    mutating func consoleLooked(showing cells: [UInt8]?, now: Double) -> [ScreenEffect] {
        guard var wait = consoleWait else { return [] }
        guard goingDown == nil else {
            consoleWait = nil
            return []
        }
        let waited = JSONValue.formatNumber(((now - wait.since) * 100).rounded() / 100)
        let new = wait.showsSomethingNew(cells)
        if new || now >= wait.deadline {
            let line = new ? "hide: the console shows something new after \(waited) s"
                           : "hide: the console showed nothing new within \(waited) s; hidden anyway"
            let (_, effects) = hide(transition: wait.transition, retain: false, now: now)
            return [.log(.info, line)] + effects
        }
        wait.looked(at: now)
        consoleWait = wait
        return []
    }

    /// A change of the boot's questions (an agent's or Plymouth's question, a key, a keyboard
    /// plugged in, time): what it asks becomes the screen's effects; a changed question owes a frame.
    mutating func changeQuestions(_ change: (inout QuestionQueue) -> [QuestionQueue.Effect]) -> [ScreenEffect] {
        var effects: [ScreenEffect] = []
        for effect in change(&questions) {
            switch effect {
            case .reply(let ticket, let reply): effects.append(.replyPlymouth(ticket, reply))
            case .answer(let question): effects.append(.sendAnswer(question))
            case .clearEntry: effects.append(.clearEntry)
            case .stopReadingKeys: effects.append(.stopReadingKeys)
            case .consoleNeeded(let needed): effects.append(.consoleForQuestions(needed))
            case .changed: needsDraw = true
            case .log(let level, let line): effects.append(.log(level, line))
            }
        }
        return effects
    }

    /// A question is left to the console's own prompt (`needed`), or the last of those is gone:
    /// the display is let go to the console until then, and taken back after.
    mutating func consoleNeededForQuestions(_ needed: Bool) -> [ScreenEffect] {
        guard needed != steppedAsideForQuestions else { return [] }
        steppedAsideForQuestions = needed
        if needed {
            return [.log(.notice, "prompt: the console is shown for the question left to it"), .releaseDisplay(retainingPicture: false)]
        }
        needsDraw = true
        return [.log(.info, "prompt: the question left to the console is gone; the skeleton takes the display back"), .reacquireDisplay]
    }

    /// Time moves on: a pending show appears, a fade or dissolve ends, a monitor's own layout
    /// dissolves in, a hand-over waited for too long is said.
    mutating func advance(to now: Double) -> [ScreenEffect] {
        var effects: [ScreenEffect] = []
        for event in session.advance(to: now) {
            switch event {
            case .appeared:
                effects.append(.reacquireDisplay)
                effects += appeared()
                effects.append(.offerAgentQuestions)
            case .disappeared(let retained):
                effects += disappeared(retained: retained)
            case .settled:
                needsDraw = true
            }
        }
        if content.outputLayouts.advance(to: now) { needsDraw = true }
        if !arrivals.isEmpty, arrivals.advance(to: now, duration: transitionDuration) { needsDraw = true }
        if let line = handOver.overdue(now: now) { effects.append(.log(.warning, line)) }
        return effects
    }

    /// A hotplug event's outcome: monitors plugged in (`added`) dissolve in from their first
    /// frame, those unplugged (`removed`) are forgotten; the outputs that stay are not touched.
    mutating func outputsPlugged(in added: [String], out removed: [String]) -> [ScreenEffect] {
        arrivals.plugged(in: added, out: removed)
        needsDraw = true
        guard !added.isEmpty else { return [] }
        return [.log(.info, "hotplug: \(added.joined(separator: ", ")) plugged in; dissolving in from its first frame")]
    }

    /// A frame is about to be drawn at `now`: monitors plugged in since the last start dissolving in.
    mutating func drawing(at now: Double) { arrivals.frameDrawn(at: now) }

    /// `frame` as `output` shows it at `now`: its own layout (`OutputLayouts`), dissolving in
    /// when its monitor was just plugged in.
    func frame(_ frame: SessionFrame, for output: String, now: Double) -> SessionFrame {
        var mapped = content.outputLayouts.frame(frame, for: output, now: now)
        if !arrivals.isEmpty {
            mapped.opacity *= arrivals.opacity(of: output, duration: frame.look.presentation.transition.duration, now: now)
        }
        return mapped
    }

    /// Something besides the session moves: a monitor dissolving in, or changing layout.
    var outputsMove: Bool { !arrivals.isEmpty || content.outputLayouts.isMoving }

    /// The skeleton is on screen: shown, or fading out.
    private var onScreen: Bool { session.state == .showing || session.state == .hiding }

    private var transitionDuration: Double { session.look?.presentation.transition.duration ?? 0 }

    /// Whether the frame on screen stays because `look` is new and its pictures or texts are being
    /// made (`awaitingSprites`). Only once a first frame is up (`firstFrameShown`): at start, the
    /// skeleton comes first.
    mutating func holds(_ look: SkeletonLook, awaitingSprites: @autoclosure () -> Bool, firstFrameShown: Bool, now: Double) -> Bool {
        var holding = false
        if firstFrameShown {
            if let held, held.look == look {
                holding = now - held.since < Self.spriteHold && awaitingSprites()
            } else if awaitingSprites() {
                held = HeldLook(look: look, since: now)
                holding = true
            } else {
                held = nil
            }
        }
        held?.holding = holding
        return holding
    }

    /// The frame drawn was not held (nothing shown, or drawn whole).
    mutating func frameNotHeld() { held?.holding = false }

    /// When a held frame is to be drawn at the latest.
    var heldUntil: Double? {
        guard let held, held.holding else { return nil }
        return held.since + Self.spriteHold
    }

    /// The effects of the skeleton coming on screen.
    mutating func appeared() -> [ScreenEffect] {
        needsDraw = true
        return markHidden(false) + (session.look.map { [.appeared($0)] } ?? [])
    }

    private mutating func disappeared(retained: Bool) -> [ScreenEffect] {
        let withdrawn = changeQuestions { $0.withdraw() }
        needsDraw = false
        return withdrawn + markHidden(true)
            + [retained ? .releaseDisplay(retainingPicture: true) : .closeDisplay, .lastChanceForStartFrames]
    }

    /// The hidden mark's file is written or removed before the hide or show is answered (a crash
    /// right after must find it), when it changes.
    private mutating func markHidden(_ hidden: Bool) -> [ScreenEffect] {
        guard hidden != hiddenMarkWritten else { return [] }
        hiddenMarkWritten = hidden
        return [.writeHiddenMark(hidden)]
    }
}
