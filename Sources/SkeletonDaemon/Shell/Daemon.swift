import SkeletonBackend
import SkeletonBoot
import SkeletonContent
import SkeletonDisplay
import SkeletonLayout
import SkeletonLog
import SkeletonProtocol
import SkeletonRender
import SkeletonSettings
import SkeletonSystem

/// `skeletond run`: the shell around `Screen`, the value that says what is on screen and what
/// will be. The shell owns the descriptors and carries out what `Screen`'s transitions return
/// (`carryOut`): it draws through the display host, answers on the inlets, writes the marks. One
/// loop waits on an event source; nothing blocks; when nothing moves the loop sleeps with no deadline.
public final class Daemon {
    var config: DaemonConfig
    let logger: Logger
    let clock: any MonotonicClock
    var loop: DaemonLoop
    var screen = Screen()
    let store: LayoutStore
    let host: DisplayHost
    var pacer: FramePacer
    /// The keyboards the questions of `screen` are typed on, and what is typed (Daemon+Prompts.swift).
    let prompts: PromptDesk
    let inlets: Inlets
    var backlog = Backlog()
    let offLoop: OffLoop

    public var settings: Settings { config.settings }

    /// `events`: nil for the real loop (poll(2) with signals and a timer, made at `start`); tests
    /// pass a `SteppedEventSource` and step a `ManualClock`. `start`: the start's frames (the
    /// boot record and the frame cache), shared with a DRM provider. `initramfs`: started in the
    /// initramfs (nil: as `SKELETOND_INITRAMFS` says). `transport`: the control connections'
    /// (nil: the socket of the settings). `work`: where pictures, texts and snapshots are made
    /// (nil: a worker thread; tests pass a `SteppedWork`). VT switches are answered on the
    /// kernel's VTs with the real loop only: no VT signal reaches a stepped one, and a VT in
    /// VT_PROCESS mode nobody answers would hold switches (tests set `host.vtSwitch` themselves).
    public init(settingsSource: SettingsSource, settings: Settings, logger: Logger, clock: any MonotonicClock = SystemClock(),
                provider: any DisplayProvider = MemoryDisplayProvider(), start: StartFrames = StartFrames(),
                events: (any EventSource)? = nil, transport: (any ControlTransport)? = nil, initramfs: Bool? = nil,
                work: (any OffLoopWork)? = nil) {
        let startTime = clock.now
        let initramfs = initramfs ?? InitramfsStart.requested
        config = DaemonConfig(settings: settings, source: settingsSource, initramfs: initramfs,
                              debugTree: SystemCalls.environment("SKELETON_DEBUG") != nil, startTime: startTime)
        self.logger = logger
        self.clock = clock
        loop = DaemonLoop(events: events)
        inlets = Inlets(transport: transport)
        store = LayoutStore(directory: settings.layoutsDirectory, files: settingsSource.files)
        pacer = FramePacer(maxFPS: settings.maxFPS)
        host = DisplayHost(settings: settings, logger: logger, clock: clock, provider: provider, start: start) { step in
            logger.debug("start-up: \(step) at +\(JSONValue.formatNumber(((clock.now - startTime) * 10000).rounded() / 10)) ms")
        }
        let worker: any OffLoopWork
        if let work {
            worker = work
        } else {
            do { worker = try WorkerThreads() } catch {
                logger.warning("cannot start a worker thread (\(error)): pictures, texts and snapshots are made on the loop")
                worker = SteppedWork()
            }
        }
        // Pictures and texts for every output, off the loop; what cannot be made is said once.
        // The frame cache's frames are whole from the start: made on the loop, once per boot.
        offLoop = OffLoop(work: worker, sprites: BackgroundSprites(work: worker, report: { logger.error("layout: \($0)") }))
        prompts = Self.makePromptDesk(logger: logger, settings: settings.prompts)
        host.report = { [unowned self] event in
            switch event {
            case .attached: screen.needsDraw = true
            case .outputsPlugged(let added, let removed): carryOut(screen.outputsPlugged(in: added, out: removed))
            case .ended(let reason):
                logger.notice("exiting: \(reason)")
                loop.running = false
            }
        }
        host.keepWaitingForCard(config.initramfs)
        host.vtSwitch = events == nil ? VTSwitch(terminals: KernelTerminals()) : nil
        start.startedInInitramfs = config.initramfs
        host.sprites = offLoop.sprites
        host.work = offLoop.work
        start.sprites = ContentSprites()
    }

    // MARK: Start and stop

    /// Listens on the socket, tells systemd we are ready, opens the display and puts the start
    /// layout's first frame on it (from the frame cache when it can, before the layout is
    /// parsed); then says what it shows in the unit's status. The socket comes first so that
    /// anything wrong with it stops the daemon before the display is touched (unless the boot
    /// record showed a frame already: the caller then puts the console back).
    public func start() throws(DaemonError) {
        host.mark("daemon created")
        if loop.events == nil {
            do { loop.events = try PollEventSource() } catch { throw DaemonError("cannot set up signals and timers: \(error)") }
        }
        let transport: any ControlTransport
        if let given = inlets.givenTransport {
            transport = given
        } else if let activated = ControlSocket.activated(path: settings.socketPath, group: settings.socketGroup) {
            transport = activated
            logger.info("using the control socket passed by systemd (\(settings.socketPath))")
        } else {
            transport = try ControlSocket.create(path: settings.socketPath, mode: settings.socketMode, group: settings.socketGroup)
            logger.info("listening on \(settings.socketPath)")
        }
        let server = ControlServer(transport: transport, logger: logger)
        server.execute = { [unowned self] request, client in execute(request, from: client) }
        inlets.server = server
        if config.initramfs { InitramfsStart.writeMarker(socketPath: settings.socketPath, logger: logger) }
        if let name = settings.plymouthSocket {
            do {
                let plymouth = try PlymouthServer(name: name, logger: logger)
                plymouth.execute = { [unowned self] request, ticket in answer(request, ticket: ticket) }
                plymouth.abandoned = { [unowned self] ticket in carryOut(screen.changeQuestions { $0.plymouthAbandoned(ticket) }) }
                inlets.plymouth = plymouth
                inlets.plymouthAdapter = PlymouthAdapter(socket: "@" + name, logger: logger)
                logger.info("answering Plymouth's clients on @\(name)")
            } catch {
                logger.warning("plymouth: cannot listen on @\(name) (\(error)): plymouthd itself may be running, and its clients talk to it")
            }
        }
        if let path = settings.psplashFIFO {
            do {
                let fifo = try PsplashFIFO(path: path, logger: logger)
                fifo.execute = { [unowned self] line in performPsplash(line) }
                inlets.psplash = fifo
                logger.info("reading psplash's commands from \(path)")
            } catch {
                logger.warning("psplash: cannot read commands from \(path) (\(error)); psplash-write's messages are not shown")
            }
        }
        startAgent()
        host.mark("socket listening")
        // Ready now, not after the first frame: a splash must never hold the boot (units ordered
        // after this one would wait for a driver to load and a frame to be drawn). Clients that
        // connect from here on are served after the first frame all the same.
        SystemdNotifier().notify(["READY": "1", "STATUS": "starting: opening the display and drawing the first frame"], logger: logger)
        screen.applySettingsLayouts(settingsOutputLayouts(), now: clock.now)
        offLoop.sprites.grace = Self.firstFrameGrace
        host.open()
        host.mark("display open")
        if let start = startLayoutToShow() {
            let store = self.store
            if !host.adoptBootFrame(source: { store.source(of: start) }) {
                let ownLayouts = screen.content.outputLayouts
                host.showCachedStartFrames(source: { store.source(of: start) }, skipping: { ownLayouts.layoutName(for: $0) != nil })
            }
            if !host.firstFrameShown {
                showStartLayout(start)
                if host.display != nil { drawFrame(at: clock.now, moving: screen.session.isMoving(at: clock.now)) }
            }
            // After a frame from the cache, the layout is parsed now.
            if screen.session.look == nil { showStartLayout(start) }
        }
        host.mark("start layout loaded")
        SystemdNotifier().notify(["STATUS": readinessStatus], logger: logger)
    }

    /// The start layout, unless the skeleton was hidden in this boot before this daemon
    /// started (restarted after the app took over: showing it would cover the app).
    private func startLayoutToShow() -> String? {
        guard let start = settings.startLayout else { return nil }
        let mark = settings.hiddenMark
        switch mark.state {
        case .absent:
            return start
        case .set:
            logger.notice("not showing \(start): the skeleton was hidden in this boot before this daemon started (\(mark.path)); a show command brings it back")
            return nil
        case .stale:
            logger.info("removing \(mark.path): the skeleton was hidden in an earlier boot, not this one")
            try? mark.clear()
            return start
        }
    }

    /// Real seconds a turn's frames wait for pictures and texts being made: what takes longer
    /// shows as a skeleton until it is ready, so that no turn outlasts a frame.
    static let frameGrace = 0.004
    /// The same for the first frame, which nothing else waits on yet (a boot under emulation
    /// shapes a label in tens of milliseconds).
    static let firstFrameGrace = 0.5
    /// How many frame slots ahead a drawn frame is looked for again (half a second at 30 fps).
    static let repeatLookAhead = 15

    /// Seconds since this process started (10 ms resolution), from /proc.
    public static func processAgeSeconds() -> Double? { SystemCalls.processAgeSeconds() }

    var readinessStatus: String {
        let display = host.display
        let outputs = display.map { d in d.outputs.map { "\($0.name) \($0.size)" }.joined(separator: ", ") } ?? "waiting for a display"
        return "\(screen.session.state.rawValue); \(display?.backendName ?? "no display"): \(outputs)"
    }

    func showStartLayout(_ reference: String) {
        let loaded: (name: String, layout: Layout)
        var fromFile = true
        switch store.load(reference) {
        case .success(let l): loaded = l
        case .failure(let error):
            logger.error("start layout \"\(reference)\": \(error.message)")
            logger.warning("showing the built-in default layout instead")
            loaded = LayoutStore.builtin
            fromFile = false
        }
        let look = SkeletonLook(layoutName: loaded.name, layout: loaded.layout)
        let effects = screen.showAtStart(look, now: clock.now)
        host.startLayoutShown(look, fromFile: fromFile)
        carryOut(effects)
    }

    /// Runs until SIGTERM, SIGINT or `quit`; then releases the display and removes the socket.
    public func run() {
        while loop.running { turn() }
        shutdown()
    }

    /// Lets go of the clients, the display (the console comes back) and the socket.
    public func shutdown() {
        // A `show --wait` or `hide --wait` still owed (a quit while a show is pending) is
        // answered before the connections close: not reached, because the daemon stopped.
        for w in backlog.replies where !w.client.isClosed {
            w.client.fulfil(w.ticket, with: .ok(id: w.id, ["state": .string(screen.session.state.rawValue),
                                                          w.until == .showing ? "shown" : "hidden": false,
                                                          "problem": "the daemon stopped"]))
        }
        backlog.replies = []
        dropWaitingCommands()
        carryOut(screen.changeQuestions { $0.withdraw() })
        inlets.close()
        if config.initramfs { InitramfsStart.removeMarker(socketPath: settings.socketPath) }
        host.shutdown(retained: screen.session.retained)
        (offLoop.work as? WorkerThreads)?.close()
        logger.countUnsaidRepeats()
        logger.info("stopped")
        logger.releaseHeldLines()
    }

    // MARK: The loop

    /// One turn of the loop: time moves the session on, a frame is drawn when one is due,
    /// then the loop waits for the next event or deadline and handles what arrived.
    public func turn() {
        let now = clock.now
        // The first frame waits longer for its pictures and texts: nothing else waits on it yet;
        // so does a question's first frame, so that its message comes with it.
        offLoop.sprites.grace = host.firstFrameShown && screen.questions.askedAt == nil ? Self.frameGrace : Self.firstFrameGrace
        offLoop.sprites.newTurn()
        collectWork(now: now)
        carryOut(screen.advance(to: now))
        if let wait = screen.consoleWait, now >= wait.due {
            carryOut(screen.consoleLooked(showing: host.console.cells, now: now))
        }
        resolveWaiters()
        host.openIfDue(now: now)
        promptsTick(now: now)
        let moving = framesMove(at: now)
        pacer.followsDisplay = host.pacedByDisplay
        // Slots left out because they repeated the frame on screen are due again when anything
        // but the skeleton's own animation changes.
        if pacer.isSkipping && moreThanTheAnimationMoves { pacer.cancelSkip(now: now) }
        if (screen.needsDraw || moving) && pacer.mayDraw(at: now, moving: moving) {
            drawFrame(at: now, moving: moving)
            resolveWaiters()
        }
        host.settleStartFrames()
        if !framesMove(at: now) && !screen.needsDraw { pacer.stop() }
        guard let events = loop.events else { return }
        let ready = events.wait(for: gatherWatches(), until: nextDeadline(now: now))
        for readiness in ready {
            switch readiness {
            case .signal(let signal): handleSignal(signal)
            case .descriptor(let fd, _) where offLoop.work.watches.contains(where: { $0.descriptor == fd }):
                offLoop.work.runFinished()
            case .descriptor(let fd, let what):
                if !inlets.handle(fd, what) && !handlePromptEvent(fd) {
                    _ = host.handle(fd)
                }
            }
        }
        inlets.runQueued()
    }

    /// What the work off the loop finished (or gave up) is applied: pictures and texts that
    /// arrived are drawn in the next frame.
    private func collectWork(now: Double) {
        // The worker's eventfd is drained where poll reports it; here only what waits is applied.
        if offLoop.work.hasFinished { offLoop.work.runFinished() }
        _ = offLoop.work.expire(now: now)
        runWaitingCommands()
        if offLoop.sprites.takeArrivals() {
            host.spritesArrived()
            screen.needsDraw = true
        }
    }

    /// The descriptors the loop waits on, gathered at each turn into the array kept in `loop`.
    private func gatherWatches() -> [Watch] {
        // Filled as a local: each `&loop.watches` of a class's property is an exclusivity check.
        var list: [Watch] = []
        swap(&list, &loop.watches)
        list.removeAll(keepingCapacity: true)
        inlets.addWatches(to: &list)
        prompts.addWatches(to: &list)
        host.addWatches(to: &list)
        list += offLoop.work.watches
        loop.watches = list
        return list
    }

    /// A frame is owed for something besides the skeleton's own animation: a change asked for,
    /// a monitor dissolving in or changing layout, a bar moving. No slot is left out then.
    private var moreThanTheAnimationMoves: Bool {
        screen.needsDraw || screen.outputsMove || host.contentMoves
    }

    /// Frames change over time: the session moves, or a monitor just plugged in dissolves in.
    private func framesMove(at now: Double) -> Bool {
        screen.session.isMoving(at: now) || ((screen.outputsMove || host.contentMoves) && screen.session.frame(at: now) != nil)
    }

    private func nextDeadline(now: Double) -> Double? {
        // Lines, requests and commands waiting for their turn run at once.
        if inlets.haveQueued { return now }
        // What the work off the loop delivered (or gave up) is applied at once.
        if offLoop.work.hasFinished || offLoop.sprites.hasArrivals || waitingCommandIsReady { return now }
        var deadline = pacer.nextMovingFrame
        // A frame held back by a pending flip is drawn when the flip event wakes the loop; an
        // output that was handed over or lost is not polled on a timer.
        let presentable = host.canPresent
        if !presentable { deadline = nil }
        if screen.needsDraw, presentable, let last = pacer.lastDraw { deadline = min(deadline ?? .infinity, last + pacer.interval) }
        // A display that paces frames itself took the last one: the next is drawn now.
        if presentable, let earliest = pacer.pacedEarliest { deadline = min(deadline ?? .infinity, max(now, earliest)) }
        // A frame held for pictures and texts being made is drawn when they arrive (the worker's
        // eventfd wakes the loop) or when the hold ends, not at every frame slot meanwhile.
        if let held = screen.heldUntil { deadline = held }
        if let due = screen.session.pendingDue { deadline = min(deadline ?? due, due) }
        if let wake = host.tick(now: now) { deadline = min(deadline ?? wake, wake) }
        if let wait = screen.handOver.deadline { deadline = min(deadline ?? wait, wait) }
        if let due = screen.consoleWait?.due { deadline = min(deadline ?? due, due) }
        if let due = promptsDeadline { deadline = min(deadline ?? due, due) }
        if let overdue = offLoop.work.expire(now: now) { deadline = min(deadline ?? overdue, overdue) }
        // Start-up's routine lines wait for the first frame, but never for the loop to sleep.
        logger.releaseHeldLines()
        return deadline
    }

    func drawFrame(at now: Double, moving: Bool) {
        screen.frameNotHeld()
        // Nothing shown: what lies beneath was drawn when the skeleton went away, and a retained
        // frame must stay as it is.
        guard host.display != nil, var frame = screen.session.frame(at: now) else { screen.needsDraw = false; return }
        let layouts = screen.content.outputLayouts
        // Asked only when it matters, with the layouts read first: `holds` changes `screen`.
        let host = self.host
        if screen.holds(frame.look, awaitingSprites: host.awaitsSprites(frame.look, as: { layouts.look($0, for: $1) }),
                        firstFrameShown: host.firstFrameShown, now: now) {
            // Held on purpose: the frame after the hold starts the schedule again, not late.
            pacer.stop()
            screen.needsDraw = true
            return
        }
        frame.prompt = prompts.picture(of: screen.questions.current, notice: screen.questions.notice)
        screen.drawing(at: now)
        let drawn = screen
        switch host.present(frame, as: { drawn.frame($0, for: $1, now: now) }) {
        case .deviceGone:
            screen.needsDraw = true
            return
        case .complete:
            screen.needsDraw = false
            if frame.prompt != nil { carryOut(screen.changeQuestions { [now = clock.now] in $0.shown(now: now) }) }
        case .incomplete: screen.needsDraw = true
        }
        // A frame can start a motion of its own (a bar sliding to a new value, an indeterminate
        // bar) in a presentation that does not animate: the next frame is then due as well.
        if let late = pacer.drew(at: now, moving: moving || framesMove(at: now)) {
            logger.debug("frame late by \(JSONValue.formatNumber((late * 1000).rounded())) ms")
        }
        // The loop sleeps through the slots whose frames would repeat this one.
        if moving, !moreThanTheAnimationMoves, let next = pacer.nextFrame {
            pacer.skip(host.repeats(of: frame, from: next - now, interval: pacer.interval, slots: Self.repeatLookAhead,
                                    as: { drawn.frame($0, for: $1, now: now) }))
        }
    }

    /// Carries out what a transition of `screen` asks, in order.
    func carryOut(_ effects: [ScreenEffect]) {
        for effect in effects {
            switch effect {
            case .reacquireDisplay: if host.reacquire() { screen.needsDraw = true }
            case .releaseDisplay(let retaining): host.release(retainingPicture: retaining)
            case .closeDisplay: host.close()
            case .deactivateDisplay: host.deactivate()
            case .reactivateDisplay: host.reactivate()
            case .takeBackWhenFree: host.takeBackWhenFree()
            case .spareFromShutdownKill: InitramfsStart.markArgumentZero()
            case .fadeToConsole: host.fadeToConsole()
            case .writeHiddenMark(let hidden): writeHiddenMark(hidden)
            case .replyPlymouth(let ticket, let reply): inlets.plymouth?.fulfil(ticket, with: reply)
            case .sendAnswer(let question): sendAnswer(question)
            case .clearEntry: prompts.entry.clear()
            case .stopReadingKeys: prompts.stopReading()
            case .consoleForQuestions(let needed): stepAside(needed)
            case .offerAgentQuestions: offerAgentQuestions()
            case .lastChanceForStartFrames: host.lastChanceForStartFrames()
            case .appeared(let look):
                if config.debugTree { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
            case .log(let level, let line): logger.log(level, line)
            }
        }
    }

    func handleSignal(_ signal: Int32) {
        if signal == SystemCalls.vtReleaseSignal {
            host.vtSwitchAwayAsked()
        } else if signal == SystemCalls.vtAcquireSignal {
            host.vtSwitchedBack()
        } else if signal == SystemCalls.hangUpSignal {
            logger.info("SIGHUP: reloading")
            reloadInTurn()
        } else if screen.goingDown != nil {
            // Spared by systemd-shutdown ('@'); a stop by hand while the system goes down would
            // uncover the console for its last seconds.
            logger.notice("signal \(signal): the system is going down; the skeleton stays until the power is off")
        } else {
            logger.info("signal \(signal): stopping")
            loop.running = false
        }
    }

    /// Writes or removes the hidden mark's file; a failure is said at debug level (a read-only
    /// /run at boot is no reason to stop).
    private func writeHiddenMark(_ hidden: Bool) {
        let mark = settings.hiddenMark
        do {
            if hidden { try mark.set() } else { try mark.clear() }
        } catch {
            logger.debug("cannot record the hidden state: \(error)")
        }
    }
}
