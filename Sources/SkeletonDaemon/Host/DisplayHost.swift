import SkeletonBackend
import SkeletonBoot
import SkeletonDisplay
import SkeletonLayout
import SkeletonLog
import SkeletonRender
import SkeletonSettings
import SkeletonSystem

/// The display side of the daemon: the provider, the display it opened and a compositor per
/// output; waiting for a display that is not there yet; handing it over and taking it back;
/// and the start's frame-cache and boot-record hand-off (DisplayHost+StartFrames.swift).
final class DisplayHost {
    var settings: Settings {
        didSet { start.choices = settings.bootChoices }
    }
    let logger: Logger
    let clock: any MonotonicClock
    let provider: any DisplayProvider
    /// Start-up timing lines, measured from the daemon's creation.
    let mark: (String) -> Void
    /// Where what happens to the display goes (the daemon).
    var report: (HostEvent) -> Void = { _ in }
    private(set) var display: (any Display)?
    private(set) var compositors: [OutputCompositor] = []
    /// Makes pictures and texts for every output's compositor.
    var sprites: SpriteSource?
    /// Where a memory display writes its snapshots, off the loop.
    var work: (any OffLoopWork)?
    /// True after the display was handed back (hide); the next appearance takes it again.
    private(set) var released = false
    /// After `deactivate`: the display stays let go, whatever shows or updates, until `reactivate`.
    private(set) var deactivated = false
    private var wait = DisplayWait()
    private var replacementRetries = ReplacementRetries()
    /// A display another program holds, asked for again until it is free.
    private var takeBack = TakeBack()
    var firstFrameShown = false
    /// The open display's monitors coming and going (DRM only).
    private var hotplug: OutputHotplug?
    /// Outputs a hotplug added whose first frame is not up yet, with the time of the uevent.
    private var arrivals: [String: Double] = [:]
    /// The start layout's first frame: the boot record, the frame cache (DisplayHost+StartFrames.swift).
    let start: StartFrames
    /// VT switches while a DRM card is held (VTSwitch.swift); nil where no VT is to be touched
    /// (a daemon on a stepped loop, which no VT signal reaches).
    var vtSwitch: VTSwitch?
    /// The text console the card goes back to at the hide (and that a hide may wait for).
    var console = TextConsole()

    init(settings: Settings, logger: Logger, clock: any MonotonicClock, provider: any DisplayProvider, start: StartFrames,
         mark: @escaping (String) -> Void) {
        self.settings = settings
        self.logger = logger
        self.clock = clock
        self.provider = provider
        self.start = start
        self.mark = mark
        start.choices = settings.bootChoices
    }

    /// What a present found.
    enum PresentOutcome: Equatable {
        /// Every output shows the frame.
        case complete
        /// Some output could not take it now (a flip pending): draw again at the next chance.
        case incomplete
        /// The device went away; the host looked for another one.
        case deviceGone
    }

    // MARK: Opening and waiting

    func open() {
        do {
            if let d = try provider.open(settings: settings, logger: logger) {
                attach(d)
                return
            }
        } catch {
            logger.error("display: \(error)")
        }
        if settings.backend == .memory {
            attachMemory()
        } else if provider.watchDescriptor != nil {
            // inotify catches a new card node; timed retries (backing off to 8 s) catch a card
            // whose connectors were not probed yet when its node appeared.
            if wait.noDisplay(now: clock.now, waitSeconds: settings.displayWaitSeconds) {
                logger.notice("no display yet; waiting up to \(JSONValue.formatNumber(settings.displayWaitSeconds)) s for one to appear")
            }
        } else if settings.backend == .auto {
            logger.notice("no display found; drawing into memory")
            attachMemory()
        }
    }

    private func attachMemory() {
        attach(MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath))
    }

    private func attach(_ d: any Display) {
        display = d
        (d as? MemoryDisplay)?.work = work
        compositors = d.outputs.map { OutputCompositor(output: $0, sprites: sprites) }
        listenForHotplug(on: d)
        wait.attached(card: d is DRMDisplay || d is FramebufferDisplay)
        if d is DRMDisplay {
            // Opened while another VT is shown (a show between a hide and the switch back):
            // master is dropped at once; the switch back takes it.
            if vtSwitch?.engage(log: { logger.warning($0) }) == false {
                d.release(retainingPicture: true)
                released = true
            }
        } else {
            vtSwitch?.disengage(keepingPicture: false)
        }
        for o in d.outputs { logger.info("output \(o.name): \(o.size) (\(d.backendName))") }
        start.displayAttached(outputs: d.outputs)
        report(.attached)
    }

    /// Some output would draw `look` with pictures or texts still being made (as skeletons).
    func awaitsSprites(_ look: SkeletonLook, as perOutput: (SkeletonLook, String) -> SkeletonLook) -> Bool {
        compositors.contains { $0.renderer(for: perOutput(look, $0.output.name)).awaitsSprites }
    }

    /// Pictures or texts being made arrived: the frames that showed them as skeletons are drawn again.
    func spritesArrived() {
        for c in compositors { c.dropRenderersAwaitingSprites() }
    }

    /// Descriptors to watch: the display's events, and the provider's watch (for a display to
    /// appear, or a better one to take over).
    func addWatches(to list: inout [Watch]) {
        if let fd = display?.eventDescriptor { list.append(Watch(descriptor: fd, events: .readable)) }
        if let fd = provider.watchDescriptor { list.append(Watch(descriptor: fd, events: .readable)) }
        if let fd = hotplug?.descriptor { list.append(Watch(descriptor: fd, events: .readable)) }
    }

    /// Handles a ready descriptor; false when it is not the host's.
    func handle(_ fd: FileDescriptor) -> Bool {
        if let d = display, fd == d.eventDescriptor {
            do { try d.handleEvents() } catch {
                if error.displayServerGone { displayServerGone(error) } else { logger.error("display events: \(error)") }
                return true
            }
            applyOutputChanges(d.takeOutputChanges())
            return true
        }
        if let hotplug, fd == hotplug.descriptor {
            if hotplug.receive(now: clock.now) == .cardRemoved {
                logger.warning("display: \(hotplug.card) was removed; looking for another display")
                close()
                open()
            }
            return true
        }
        if fd == provider.watchDescriptor {
            provider.drainWatch()
            if display == nil {
                open()
            } else if !(display is MemoryDisplay) {
                // The memory fallback is kept once settled for; a framebuffer may be replaced.
                replacementRetries.cardAppeared()
                handOver(now: clock.now)
            }
            return true
        }
        return false
    }

    /// Moves to the display the provider found better (the native DRM driver replacing the
    /// firmware's framebuffer), with the same session: the next frame is drawn there whole. A
    /// card without probed connectors yet is asked again every 0.5 s, a few times.
    private func handOver(now: Double) {
        replacementRetries.asking()
        guard let old = display else { return }
        guard let next = provider.replacement(settings: settings, logger: logger) else {
            replacementRetries.nothingYet(now: now)
            return
        }
        logger.notice("display: \(next.backendName) takes over from \(old.backendName)")
        close()
        attach(next)
    }

    /// For the daemon started in the initramfs: `auto` waits for a card past `display-wait`
    /// rather than drawing into memory (`DisplayWait.keepsWaitingForCard`).
    func keepWaitingForCard(_ keeps: Bool) { wait.keepsWaitingForCard = keeps }

    /// Looks for a display again when a retry or the end of the wait is due.
    func openIfDue(now: Double) {
        if replacementRetries.takeDue(now: now) { handOver(now: now) }
        takeBackIfDue(now: now)
        if !released, let eventAt = hotplug?.takeDueRescan(now: now) { rescanOutputs(eventAt: eventAt) }
        if display == nil, wait.takeDueLook(now: now) { open() }
        if wait.takeRunOut(now: now) {
            let within = "no display appeared within \(JSONValue.formatNumber(settings.displayWaitSeconds)) s"
            switch wait.runOut(backendIsAuto: settings.backend == .auto) {
            case .keepWaiting(let why):
                logger.warning("\(within); still waiting for one" + (why.map { ": \($0)" } ?? ""))
            case .drawIntoMemory:
                logger.warning("\(within); drawing into memory")
                attachMemory()
            }
        }
    }

    /// The display's own timed work (a memory snapshot); returns when the host wants to run
    /// again: for that work, a retry or the end of the wait.
    func tick(now: Double) -> Double? {
        // A display just taken by another program is seen to at once (`takeBackIfDue`).
        let justTaken = !released && !deactivated && display?.heldByAnother == true
        return [display?.tick(now: now), wait.deadline, display == nil ? wait.retryAt : nil, replacementRetries.dueAt,
                takeBack.due(now: now, justTaken: justTaken),
                released ? nil : hotplug?.rescanDue].compactMap { $0 }.min()
    }

    /// Going down (`shutdown`): the display is taken back from whatever holds it, as soon as it is free.
    func takeBackWhenFree() { takeBack.goingDown() }

    /// The display another program holds is taken back the moment it lets go, and the next frame
    /// is drawn whole (`TakeBack`). Not after `deactivate`: the display is the app's then.
    private func takeBackIfDue(now: Double) {
        let step = takeBack.step(now: now, eligible: !deactivated && vtSwitch?.away != true && display != nil, released: released,
                                 problem: display?.problem != nil, heldByAnother: display?.heldByAnother == true)
        switch step {
        case .nothing:
            return
        case .sayTaken:
            logger.warning("display: another program took DRM master without `deactivate`; the skeleton waits and takes the display back when it lets go")
        case .ask(let quietly):
            reacquire(quietly: quietly)
            let got = !released && display?.problem == nil
            takeBack.asked(now: now, quietly: quietly, got: got)
            if got { report(.attached) }
        }
    }

    // MARK: Monitors that come and go

    private func listenForHotplug(on d: any Display) {
        hotplug = nil
        arrivals = [:]
        guard let card = d.hotplugCard else { return }
        do {
            hotplug = try OutputHotplug(card: card)
        } catch {
            logger.warning("cannot listen to the kernel's uevents (\(error)): monitors plugged in or out later are not noticed")
        }
    }

    /// After a hotplug event: compositors go with the outputs that went away; outputs that
    /// came get one each (`Screen` dissolves them in). Nothing else on screen is touched.
    private func rescanOutputs(eventAt: Double) {
        guard let display else { return }
        applyOutputChanges(display.rescanOutputs { logger.notice($0) }, arrivingAt: eventAt)
    }

    /// Compositors go with the outputs that went away; outputs that came get one each, drawn
    /// whole (`arrivingAt`: a monitor's plugging in, reported).
    private func applyOutputChanges(_ changes: OutputChanges, arrivingAt eventAt: Double? = nil) {
        guard !changes.isEmpty else { return }
        compositors.removeAll { c in changes.removed.contains { $0 === c.output } }
        for output in changes.removed { arrivals[output.name] = nil }
        for output in changes.added {
            let compositor = OutputCompositor(output: output, sprites: sprites)
            if let eventAt {
                arrivals[output.name] = eventAt
            } else {
                logger.info("output \(output.name): now \(output.size)")
            }
            compositors.append(compositor)
        }
        report(.attached)
        if eventAt != nil { report(.outputsPlugged(added: changes.added.map(\.name), removed: changes.removed.map(\.name))) }
    }

    /// The compositor the skeleton was a window of went away or closed the window: the daemon
    /// exits, or goes on with `auto` (the card the compositor held is free again), as
    /// `display.wayland.whenGone` (`display.x11.whenGone`) says.
    private func displayServerGone(_ error: DisplayError) {
        logger.warning("\(error)")
        close()
        let (whenGone, key) = settings.backend == .x11 ? (settings.x11.whenGone, "x11") : (settings.wayland.whenGone, "wayland")
        switch whenGone {
        case .exit:
            report(.ended(reason: "the display server went away (display.\(key).whenGone: exit)"))
        case .auto:
            logger.notice("going on with the auto backend (display.\(key).whenGone: auto)")
            settings.backend = .auto
            open()
        }
    }

    /// Some output's content still moves: a bar slides or is indeterminate.
    var contentMoves: Bool { compositors.contains { $0.contentMoves } }

    // MARK: Drawing

    /// True when some output can take a frame now (none pending a flip, not handed over).
    var canPresent: Bool { compositors.contains { $0.output.canPresent } }

    /// Draws `frame` on every output that can take it, as `perOutput` makes it for the output
    /// of that name (its own layout).
    func present(_ frame: SessionFrame?, as perOutput: (SessionFrame, String) -> SessionFrame = { frame, _ in frame }) -> PresentOutcome {
        guard let display else { return .incomplete }
        var complete = true
        var deviceGone = false
        var serverGone: DisplayError?
        for compositor in compositors {
            guard compositor.output.canPresent else { complete = false; continue }
            do {
                if try !compositor.present(frame.map { perOutput($0, compositor.output.name) }) {
                    complete = false
                } else if !arrivals.isEmpty, let eventAt = arrivals.removeValue(forKey: compositor.output.name) {
                    let ms = ((clock.now - eventAt) * 1000).rounded()
                    logger.notice("hotplug: first frame on \(compositor.output.name) \(JSONValue.formatNumber(ms)) ms after the uevent")
                }
            } catch {
                // A device that went away (unplugged, unbound, simpledrm replaced by the native
                // driver) is no fault: it is said below, once.
                if error.deviceGone || error.displayServerGone { logger.info("present on \(compositor.output.name): \(error)") }
                else { logger.error("present on \(compositor.output.name): \(error)") }
                deviceGone = deviceGone || error.deviceGone
                if error.displayServerGone { serverGone = error }
            }
        }
        if let serverGone {
            displayServerGone(serverGone)
            return .deviceGone
        }
        if deviceGone {
            logger.warning("the display device went away; looking for another one")
            close()
            open()
            return .deviceGone
        }
        // An output whose mode the kernel refused makes way for one at another mode (or another
        // connector), drawn at the next chance.
        let replaced = display.takeOutputChanges()
        if !replaced.isEmpty {
            complete = false
            applyOutputChanges(replaced)
        }
        if !firstFrameShown { logFirstFrame(on: display, from: nil) }
        return complete ? .complete : .incomplete
    }

    /// How many of the next `slots` frame slots (the first `offset` seconds after `frame`, the
    /// others `interval` apart) would show every output exactly as `frame` shows it: a pulse
    /// between near colours (a light tint and its complement) keeps each colour for several
    /// frames. None while the frame blends or asks a question.
    func repeats(of frame: SessionFrame, from offset: Double, interval: Double, slots: Int,
                 as perOutput: (SessionFrame, String) -> SessionFrame) -> Int {
        guard frame.isSteady, frame.prompt == nil, !compositors.isEmpty else { return 0 }
        var count = slots
        for compositor in compositors where count > 0 {
            let renderer = compositor.renderer(for: perOutput(frame, compositor.output.name).look)
            count = renderer.repeats(of: frame.animationTime, from: frame.animationTime + offset, step: interval, count: count)
        }
        return count
    }

    /// A frame is owed to a waiting `show --wait` only by a display that can show it.
    var unshowableReason: String? {
        if let away = vtSwitch?.awayReason { return away }
        guard let display else { return waitingReason }
        if released { return display.problem ?? "the display was handed over" }
        if display.outputs.isEmpty { return "no monitor is connected" }
        return display.problem
    }

    /// What `status` reports as the display's problem: another VT shown, the display's own, or
    /// the wait for one.
    var problem: String? { vtSwitch?.awayReason ?? display?.problem ?? waitingReason }

    /// Why nothing is shown while no display is open and one is waited for.
    var waitingReason: String? {
        guard display == nil, let waitingSince = wait.since else { return nil }
        return "no display: waiting for one since \(JSONValue.formatNumber(((clock.now - waitingSince) * 10).rounded() / 10)) s"
            + (wait.hadCard ? " (the card went away)" : "")
    }

    /// Some output's display paces frames itself (see `DisplayOutput.pacesFrames`).
    var pacedByDisplay: Bool { compositors.contains { $0.output.pacesFrames } }

    var allOutputsCanPresent: Bool { display?.outputs.allSatisfy(\.canPresent) ?? false }

    // MARK: Handing over

    /// `hide --retain`: the last frame stays, master is dropped; a later show dissolves from it.
    func release(retainingPicture: Bool) {
        for c in compositors { c.keepShadowAsBeneath() }
        display?.release(retainingPicture: retainingPicture)
        released = true
        vtSwitch?.disengage(keepingPicture: retainingPicture)
    }

    // MARK: VT switches

    /// SIGUSR1 from the VT the skeleton shows on: another VT is asked for. DRM master is dropped
    /// (the frame left for the kernel's console to replace with its own mode set), then the
    /// switch allowed; nothing is drawn until the switch back.
    func vtSwitchAwayAsked() {
        guard let vtSwitch, vtSwitch.switchAwayAsked() else { return }
        if let display, display is DRMDisplay, !released {
            display.release(retainingPicture: true)
            released = true
        }
        vtSwitch.allowSwitch()
        logger.info("VT switch: another VT is shown; DRM master dropped until the switch back")
    }

    /// SIGUSR2: the skeleton's VT is shown again: master is taken back and the whole frame drawn.
    func vtSwitchedBack() {
        guard let vtSwitch, vtSwitch.switchedBack(), !deactivated else { return }
        logger.info("VT switch: back on the skeleton's VT")
        if reacquire() { report(.attached) }
    }

    /// The skeleton is fading out: the console is what it fades to.
    func fadeToConsole() { for c in compositors { c.clearBeneath() } }

    /// A hide: the console comes back, and the device is let go entirely (master, buffers,
    /// descriptor), so the next program finds it free. A later show opens it again.
    func close() {
        defer { vtSwitch?.disengage(keepingPicture: false) }
        guard let d = display else { return }
        if d is MemoryDisplay {
            // Nothing to hand over in memory: it shows what lies beneath until the next show.
            if !released { d.release(retainingPicture: false) }
            released = true
            return
        }
        if !released {
            if let drm = d as? DRMDisplay { drm.releaseToConsole(redraw: console.redraw(around:)) } else { d.release(retainingPicture: false) }
        }
        d.close()
        display = nil
        compositors = []
        hotplug = nil
        arrivals = [:]
        released = false
    }

    /// `deactivate` (a display server is about to open the card): the display is let go with the
    /// frame left on it, and nothing takes it back until `reactivate`.
    func deactivate() {
        guard !deactivated else { return }
        deactivated = true
        release(retainingPicture: true)
    }

    /// `reactivate`: shows and updates may take the display back again.
    func reactivate() { deactivated = false }

    /// Before a show or update: a display handed over, lost or closed is taken back (not while
    /// deactivated).
    /// True when there was something to take back (its frames are owed whole).
    @discardableResult
    func reacquire(quietly: Bool = false) -> Bool {
        guard !deactivated else { return false }
        // Not while another VT is shown: the switch back takes the display (`vtSwitchedBack`).
        if let vtSwitch, display == nil || display is DRMDisplay, !vtSwitch.engage(log: { logger.warning($0) }) { return false }
        guard let display else {
            open()
            return true
        }
        guard released || display.problem != nil else { return false }
        defer { for c in compositors { c.invalidate() } }
        do {
            try display.reacquire()
            released = false
            logger.info("took the display back")
            applyOutputChanges(display.takeOutputChanges())
        } catch {
            if !quietly { logger.limited(.error, key: "taking the display back", "taking the display back: \(error)") }
        }
        return true
    }

    /// At exit: the console comes back (or the retained frame stays) and the device is closed.
    func shutdown(retained: Bool) {
        defer { vtSwitch?.disengage(keepingPicture: retained) }
        guard let display else { return }
        if !released { display.release(retainingPicture: false) }
        if retained { logger.info("exiting with the frame retained: it stays on kernels with DRM CLOSEFB (6.8 and later)") }
        display.close()
    }

    /// The size the tree is resolved at: the first output's, else the layout's own.
    var firstOutputSize: Size? { compositors.first?.output.size }
}
