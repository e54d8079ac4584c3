import Foundation
import SkeletonBackend
import SkeletonBoot
@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonLog
import SkeletonSettings
import SkeletonSystem

/// The display host with no daemon: a `DisplayHost` on the real DRM provider over a card in
/// memory (the `FakeDRMDevice` at `card`), or on the memory output when there is no card. Its
/// frames come from a `Session` showing a test layout, presented as the daemon's draw presents
/// them (`DisplayHost.present`, then a frame owed again unless every output took it). `step`
/// moves a manual clock and turns the loop only where the daemon's would wake: a frame slot of
/// the pacer while the skeleton moves or a frame is owed and some output can take one, the
/// host's own deadline (`tick`), one of its descriptors ready (`addWatches`, `handle`), or at once
/// after something was handed to the host between two waits (`act`: a signal, a command's effect).
final class HostOnCard {
    let clock = ManualClock(now: 100)
    let lines = LogLines()
    let host: DisplayHost
    /// The frame source: what is shown.
    private(set) var session = Session()
    /// The test layout, as shown at start.
    let look: SkeletonLook
    /// A frame is owed for a change besides time: the host attached or took back a display
    /// (`HostEvent.attached`), a show, a changed frame.
    private(set) var needsDraw = false
    /// What the last present found.
    private(set) var lastPresent: DisplayHost.PresentOutcome?
    /// How many times the loop turned.
    private(set) var turns = 0
    private var pacer: FramePacer
    /// The deadline the last turn asked for (nil: asleep until a descriptor is ready).
    private var deadline: Double?
    /// False after a turn that handled something, or after `act`: the loop turns again without sleeping.
    private var asleep = false
    private var isShutDown = false

    /// As the daemon starts: the display opened, the layout `text` shown at once and its first
    /// frame drawn, then a first turn. `card`: the path of a `FakeDRMDevice` (nil: memory).
    /// `terminals`: VTs in memory, switched by the test (`act { $0.vtSwitchAwayAsked() }`).
    init(card: String?, terminals: (any VirtualTerminals)? = nil, layout text: String = TestLayouts.simpleText,
         size: Size = Size(width: 200, height: 100)) throws {
        guard case .success(let layout) = LayoutLoader.load(text: Array(text.utf8), file: "simple.json") else { throw HarnessError("layout") }
        look = SkeletonLook(layoutName: "simple", layout: layout)
        var settings = Settings()
        settings.backend = card == nil ? .memory : .auto
        settings.device = card
        settings.memorySize = size
        settings.frameCacheDirectory = nil
        pacer = FramePacer(maxFPS: settings.maxFPS)
        let lines = self.lines, clock = self.clock
        host = DisplayHost(settings: settings, logger: lines.logger(clock: { clock.now }), clock: clock,
                           provider: card == nil ? MemoryDisplayProvider() : DRMDisplayProvider(), start: StartFrames(), mark: { _ in })
        host.report = { [unowned self] event in
            if event == .attached { needsDraw = true }
        }
        host.vtSwitch = terminals.map(VTSwitch.init)
        // Not this machine's console.
        let nowhere = FileManager.default.temporaryDirectory.path + "/host-on-card-\(UUID().uuidString.prefix(8))"
        host.console = TextConsole(screenPath: nowhere + "/no-vcs", terminalPath: nowhere + "/no-tty")
        host.open()
        _ = session.show(look, delay: 0, transition: .none, now: clock.now)
        needsDraw = true
        if host.display != nil { draw(at: clock.now, moving: session.isMoving(at: clock.now)) }
        turn()
        step(to: clock.now)
    }

    deinit { if !isShutDown { host.shutdown(retained: session.retained) } }

    // MARK: The loop

    /// Moves the clock to `time`, turning the loop wherever the daemon's would wake on the way
    /// and nowhere else.
    func step(to time: Double) {
        for _ in 0..<100_000 {
            if wakes(at: clock.now) {
                turn()
            } else if let deadline, deadline <= time, deadline > clock.now {
                clock.set(deadline)
            } else {
                break
            }
        }
        if time > clock.now { clock.set(time) }
    }

    /// Hands the host something between two waits, as the daemon's loop does with a signal
    /// (`vtSwitchAwayAsked`, `vtSwitchedBack`) or a command's effect (`deactivate`): the loop
    /// then turns again at once.
    func act(_ body: (DisplayHost) -> Void) {
        body(host)
        asleep = false
    }

    /// One turn, as `Daemon.turn` takes it for the display: retries and looks that are due, a
    /// frame when one is owed or the picture moves and the pacer lets it, the next deadline,
    /// then the host's ready descriptors (a flip done, a card node, a uevent).
    private func turn() {
        turns += 1
        let now = clock.now
        host.openIfDue(now: now)
        let moving = session.isMoving(at: now)
        if (needsDraw || moving) && pacer.mayDraw(at: now, moving: moving) { draw(at: now, moving: moving) }
        if !session.isMoving(at: now) && !needsDraw { pacer.stop() }
        deadline = nextDeadline(now: now)
        let ready = SystemCalls.pollReady(watches, timeoutMilliseconds: 0)
        for watch in ready { _ = host.handle(watch.descriptor) }
        asleep = ready.isEmpty
    }

    /// Whether the loop, asleep in its last wait, would wake at `now`.
    private func wakes(at now: Double) -> Bool {
        if !asleep { return true }
        if let deadline, deadline <= now { return true }
        return !SystemCalls.pollReady(watches, timeoutMilliseconds: 0).isEmpty
    }

    private var watches: [Watch] {
        var list: [Watch] = []
        host.addWatches(to: &list)
        return list
    }

    /// The daemon's deadline, for the display: the next moving frame or the owed one while some
    /// output can take it (a flip pending wakes the loop by its event instead), and the host's own.
    private func nextDeadline(now: Double) -> Double? {
        let presentable = host.canPresent
        var deadline = presentable ? pacer.nextMovingFrame : nil
        if needsDraw, presentable, let last = pacer.lastDraw { deadline = min(deadline ?? .infinity, last + pacer.interval) }
        if let wake = host.tick(now: now) { deadline = min(deadline ?? wake, wake) }
        return deadline
    }

    /// The session's frame at `now` on the display, as `Daemon.drawFrame` presents it.
    private func draw(at now: Double, moving: Bool) {
        guard host.display != nil, let frame = session.frame(at: now) else {
            needsDraw = false
            return
        }
        let outcome = host.present(frame)
        lastPresent = outcome
        switch outcome {
        case .deviceGone:
            needsDraw = true
            return
        case .complete: needsDraw = false
        case .incomplete: needsDraw = true
        }
        pacer.drew(at: now, moving: moving || session.isMoving(at: now))
    }

    // MARK: What commands do to the display

    /// A show with no transition (a show while shown is an update), as the daemon carries it
    /// out: the display is taken back (`reacquire`) and a frame is owed.
    func show(_ look: SkeletonLook? = nil) {
        _ = session.show(look ?? self.look, delay: 0, transition: .none, now: clock.now)
        needsDraw = true
        act { _ = $0.reacquire() }
    }

    /// An update to `look` while shown, with no dissolve: a changed frame, owed at once; the
    /// display is taken back first, as for a show.
    func update(_ look: SkeletonLook) {
        session.update(look, transition: .none, now: clock.now)
        needsDraw = true
        act { _ = $0.reacquire() }
    }

    /// A hide with no transition: the display is closed, the console comes back (`close`); with
    /// `retain`, it is let go with the frame left on it (`release(retainingPicture: true)`).
    func hide(retain: Bool = false) {
        _ = session.hide(transition: .none, retain: retain, now: clock.now)
        act { retain ? $0.release(retainingPicture: true) : $0.close() }
    }

    /// The daemon stops: the console comes back, or the retained frame stays.
    func shutdown() {
        isShutDown = true
        host.shutdown(retained: session.retained)
    }

    func logContains(_ text: String) -> Bool { lines.contain(text) }
}
