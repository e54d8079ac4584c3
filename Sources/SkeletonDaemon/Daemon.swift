import SkeletonSettings
import SkeletonContent
import SkeletonBoot
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender
import SkeletonSystem

/// `skeletond run`: the session (what is shown), driven by the control server's commands and
/// drawn by the display host, in one loop that waits on an event source. Nothing blocks; when
/// nothing moves the loop sleeps with no deadline.
public final class Daemon {
    public internal(set) var settings: Settings
    let settingsSource: SettingsSource
    let logger: Logger
    let clock: any MonotonicClock
    var events: (any EventSource)?
    /// The control connections' transport when a test gives one (memory); else the socket.
    private let transport: (any ControlTransport)?
    let session = Session()
    let store: LayoutStore
    let host: DisplayHost
    var server: ControlServer?
    var pacer: FramePacer
    var running = true
    var needsDraw = false
    /// After `deactivate`: the app's word that it has drawn, awaited (see `HandOverWatch`).
    var handOverWatch = HandOverWatch()
    var waiters: [Waiter] = []
    /// What the screen shows besides the session's state: overrides, content, the outputs' own layouts.
    var screen = ScreenContent()
    /// Plymouth's socket, when the settings ask for it, and its requests as commands.
    var plymouth: PlymouthServer?
    var plymouthAdapter: PlymouthAdapter?
    /// psplash's FIFO, when the settings ask for it.
    var psplash: PsplashFIFO?
    /// systemd's password questions, read as an agent does (`prompts.agent`).
    var agent: PasswordAgent?
    /// The questions on screen and the keyboard they are typed on (Daemon+Prompts.swift).
    var prompts: PromptDesk!
    /// The console shows a question left to it (`stepAside`).
    var steppedAside = false
    let startTime: Double
    let debugTree: Bool
    /// Started in the initramfs (`SKELETOND_INITRAMFS=1`): it marks itself for the real root
    /// (`InitramfsStart`) and follows the switch there (`new-root`).
    let initramfs: Bool
    var rootSwitch = RootSwitch()
    /// Set by `shutdown`: the system is going down and the shutdown layout stays until the power
    /// is off (`Daemon+Shutdown.swift`).
    var goingDown: GoingDown?
    /// Where pictures, texts and snapshots are made, off the loop.
    let work: any OffLoopWork
    /// The outputs' pictures and texts, made by `work`.
    let sprites: BackgroundSprites
    /// A new look whose pictures or texts are still being made, and since when: the frame on
    /// screen stays until they are ready, at most `spriteHold` seconds.
    var heldLook: (look: SkeletonLook, since: Double)?
    /// The last frame due was held (see `heldLook`).
    var holdingFrame = false
    /// Commands waiting behind a layout being read off the loop (Daemon+WaitingCommands.swift).
    var waiting: [WaitingCommand] = []
    /// Whether the hidden mark's file was last written (true) or removed (false).
    var hiddenMarkWritten: Bool?

    /// A reply owed once the session reaches a state (`show --wait`, `hide --wait`).
    struct Waiter {
        var client: ClientConnection
        var ticket: Int
        var id: JSONValue?
        var until: SessionState
        /// A show is answered only once a frame drawn after it is on screen.
        var afterFrame: Int
    }

    /// `events`: nil for the real loop (poll(2) with signals and a timer, made at `start`); tests
    /// pass a `SteppedEventSource` and step a `ManualClock`. `start`: the start's frames (the
    /// boot record and the frame cache), shared with a DRM provider. `initramfs`: started in the
    /// initramfs (nil: as `SKELETOND_INITRAMFS` says). `transport`: the control connections'
    /// (nil: the socket of the settings). `work`: where pictures, texts and snapshots are made
    /// (nil: a worker thread; tests pass a `SteppedWork`).
    public init(settingsSource: SettingsSource, settings: Settings, logger: Logger, clock: any MonotonicClock = SystemClock(),
                provider: any DisplayProvider = MemoryDisplayProvider(), start: StartFrames = StartFrames(),
                events: (any EventSource)? = nil, transport: (any ControlTransport)? = nil, initramfs: Bool? = nil,
                work: (any OffLoopWork)? = nil) {
        self.transport = transport
        self.initramfs = initramfs ?? InitramfsStart.requested
        self.settingsSource = settingsSource
        self.settings = settings
        self.logger = logger
        self.clock = clock
        self.events = events
        self.store = LayoutStore(directory: settings.layoutsDirectory, files: settingsSource.files)
        let startTime = clock.now
        self.startTime = startTime
        self.pacer = FramePacer(maxFPS: settings.maxFPS)
        self.host = DisplayHost(settings: settings, logger: logger, clock: clock, provider: provider, start: start) { step in
            logger.debug("start-up: \(step) at +\(JSONValue.formatNumber(((clock.now - startTime) * 10000).rounded() / 10)) ms")
        }
        if let work {
            self.work = work
        } else {
            do { self.work = try WorkerThreads() } catch {
                logger.warning("cannot start a worker thread (\(error)): pictures, texts and snapshots are made on the loop")
                self.work = SteppedWork()
            }
        }
        // Pictures and texts for every output, off the loop; what cannot be made is said once.
        // The frame cache's frames are whole from the start: made on the loop, once per boot.
        sprites = BackgroundSprites(work: self.work, report: { logger.error("layout: \($0)") })
        self.debugTree = SystemCalls.environment("SKELETON_DEBUG") != nil
        host.onAttach = { [unowned self] in needsDraw = true }
        host.onEnd = { [unowned self] reason in
            logger.notice("exiting: \(reason)")
            running = false
        }
        host.keepsWaitingForCard = self.initramfs
        start.startedInInitramfs = self.initramfs
        prompts = makePromptDesk()
        host.sprites = sprites
        host.work = self.work
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
        if events == nil {
            do { events = try PollEventSource() } catch { throw DaemonError("cannot set up signals and timers: \(error)") }
        }
        let transport: any ControlTransport
        if let given = self.transport {
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
        self.server = server
        if initramfs { InitramfsStart.writeMarker(socketPath: settings.socketPath, logger: logger) }
        if let name = settings.plymouthSocket {
            do {
                let plymouth = try PlymouthServer(name: name, logger: logger)
                plymouth.execute = { [unowned self] request, ticket in answer(request, ticket: ticket) }
                plymouth.abandoned = { [unowned self] ticket in prompts.plymouthAbandoned(ticket) }
                self.plymouth = plymouth
                plymouthAdapter = PlymouthAdapter(socket: "@" + name, logger: logger)
                logger.info("answering Plymouth's clients on @\(name)")
            } catch {
                logger.warning("plymouth: cannot listen on @\(name) (\(error)): plymouthd itself may be running, and its clients talk to it")
            }
        }
        if let path = settings.psplashFIFO {
            do {
                let fifo = try PsplashFIFO(path: path, logger: logger)
                fifo.execute = { [unowned self] line in carryOut(line) }
                psplash = fifo
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
        screen.outputLayouts.applySettings(settingsOutputLayouts(), now: clock.now)
        sprites.grace = Self.firstFrameGrace
        host.open()
        host.mark("display open")
        if let start = startLayoutToShow() {
            let store = self.store
            if !host.adoptBootFrame(source: { store.source(of: start) }) {
                let ownLayouts = screen.outputLayouts
                host.showCachedStartFrames(source: { store.source(of: start) }, skipping: { ownLayouts.layoutName(for: $0) != nil })
            }
            if !host.firstFrameShown {
                showStartLayout(start)
                if host.display != nil { drawFrame(at: clock.now, moving: session.isMoving(at: clock.now)) }
            }
            // After a frame from the cache, the layout is parsed now.
            if session.look == nil { showStartLayout(start) }
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
    /// How long a frame already on screen stays while a new look's pictures and texts are made
    /// (a shutdown layout's message, a new layout's labels): the change then appears whole rather
    /// than in two steps. Past it, what is not ready shows as its skeleton. Under QEMU TCG on a
    /// loaded machine the shutdown layout's message took over 1 s to shape; the old frame
    /// staying a little longer is better than a message seen as a grey bar first.
    static let spriteHold = 2.0
    /// How many frame slots ahead a drawn frame is looked for again (half a second at 30 fps).
    static let repeatLookAhead = 15

    /// Seconds since this process started (10 ms resolution), from /proc.
    public static func processAgeSeconds() -> Double? { SystemCalls.processAgeSeconds() }

    var readinessStatus: String {
        let display = host.display
        let outputs = display.map { d in d.outputs.map { "\($0.name) \($0.size)" }.joined(separator: ", ") } ?? "waiting for a display"
        return "\(session.state.rawValue); \(display?.backendName ?? "no display"): \(outputs)"
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
        _ = session.show(look, delay: 0, transition: .none, now: clock.now)
        host.startLayoutShown(look, fromFile: fromFile)
        didAppear()
    }

    /// Runs until SIGTERM, SIGINT or `quit`; then releases the display and removes the socket.
    public func run() {
        while running { turn() }
        shutdown()
    }

    /// Lets go of the clients, the display (the console comes back) and the socket.
    public func shutdown() {
        // A `show --wait` or `hide --wait` still owed (a quit while a show is pending) is
        // answered before the connections close: not reached, because the daemon stopped.
        for w in waiters where !w.client.isClosed {
            w.client.fulfil(w.ticket, with: .ok(id: w.id, ["state": .string(session.state.rawValue),
                                                          w.until == .showing ? "shown" : "hidden": false,
                                                          "problem": "the daemon stopped"]))
        }
        waiters = []
        dropWaitingCommands()
        server?.close()
        prompts.hidden()
        plymouth?.close()
        psplash?.close()
        agent?.close()
        if initramfs { InitramfsStart.removeMarker(socketPath: settings.socketPath) }
        host.shutdown(retained: session.retained)
        (work as? WorkerThreads)?.close()
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
        sprites.grace = host.firstFrameShown && prompts.askedAt == nil ? Self.frameGrace : Self.firstFrameGrace
        sprites.newTurn()
        collectWork(now: now)
        for event in session.advance(to: now) { handle(event) }
        if screen.outputLayouts.advance(to: now) { needsDraw = true }
        resolveWaiters()
        host.openIfDue(now: now)
        if let line = handOverWatch.overdue(now: now) { logger.warning(line) }
        promptsTick(now: now)
        let moving = framesMove(at: now)
        pacer.followsDisplay = host.pacedByDisplay
        // Slots left out because they repeated the frame on screen are due again when anything
        // but the skeleton's own animation changes.
        if pacer.isSkipping && moreThanTheAnimationMoves { pacer.cancelSkip(now: now) }
        if (needsDraw || moving) && pacer.mayDraw(at: now, moving: moving) {
            drawFrame(at: now, moving: moving)
            resolveWaiters()
        }
        host.settleStartFrames()
        if !framesMove(at: now) && !needsDraw { pacer.stop() }
        guard let events else { return }
        let ready = events.wait(for: gatherWatches(), until: nextDeadline(now: now))
        for readiness in ready {
            switch readiness {
            case .signal(let signal): handleSignal(signal)
            case .descriptor(let fd, _) where work.watches.contains(where: { $0.descriptor == fd }):
                work.runFinished()
            case .descriptor(let fd, let what):
                if server?.handle(fd, what) != true && plymouth?.handle(fd, what) != true && psplash?.handle(fd) != true
                    && !handlePromptEvent(fd) {
                    _ = host.handle(fd)
                }
            }
        }
        server?.runQueuedLines()
        plymouth?.runQueuedRequests()
        psplash?.runQueuedCommands()
    }

    /// What the work off the loop finished (or gave up) is applied: pictures and texts that
    /// arrived are drawn in the next frame.
    private func collectWork(now: Double) {
        // The worker's eventfd is drained where poll reports it; here only what waits is applied.
        if work.hasFinished { work.runFinished() }
        _ = work.expire(now: now)
        runWaitingCommands()
        if sprites.takeArrivals() {
            host.spritesArrived()
            needsDraw = true
        }
    }

    /// The descriptors the loop waits on, gathered at each turn into one array kept between
    /// turns (the sources' lists joined with `+` made several arrays a frame).
    private var watchList: [Watch] = []

    private func gatherWatches() -> [Watch] {
        // Filled as a local: each `&watchList` of a class's property is an exclusivity check.
        var list: [Watch] = []
        swap(&list, &watchList)
        list.removeAll(keepingCapacity: true)
        server?.addWatches(to: &list)
        plymouth?.addWatches(to: &list)
        psplash?.addWatches(to: &list)
        agent?.addWatches(to: &list)
        prompts.addWatches(to: &list)
        host.addWatches(to: &list)
        list += work.watches
        watchList = list
        return list
    }

    /// A frame is owed for something besides the skeleton's own animation: a change asked for,
    /// a monitor dissolving in or changing layout, a bar moving. No slot is left out then.
    private var moreThanTheAnimationMoves: Bool {
        needsDraw || host.hasArrivals || screen.outputLayouts.isMoving || host.contentMoves
    }

    /// Frames change over time: the session moves, or a monitor just plugged in dissolves in.
    private func framesMove(at now: Double) -> Bool {
        session.isMoving(at: now) || ((host.hasArrivals || screen.outputLayouts.isMoving || host.contentMoves) && session.frame(at: now) != nil)
    }

    private func nextDeadline(now: Double) -> Double? {
        // Lines, requests and commands waiting for their turn run at once.
        if server?.hasRunnableLines == true || plymouth?.hasQueuedRequests == true || psplash?.hasQueuedCommands == true { return now }
        // What the work off the loop delivered (or gave up) is applied at once.
        if work.hasFinished || sprites.hasArrivals || waitingCommandIsReady { return now }
        var deadline = pacer.nextMovingFrame
        // A frame held back by a pending flip is drawn when the flip event wakes the loop; an
        // output that was handed over or lost is not polled on a timer.
        let presentable = host.canPresent
        if !presentable { deadline = nil }
        if needsDraw, presentable, let last = pacer.lastDraw { deadline = min(deadline ?? .infinity, last + pacer.interval) }
        // A display that paces frames itself took the last one: the next is drawn now.
        if presentable, let earliest = pacer.pacedEarliest { deadline = min(deadline ?? .infinity, max(now, earliest)) }
        // A frame held for pictures and texts being made is drawn when they arrive (the worker's
        // eventfd wakes the loop) or when the hold ends, not at every frame slot meanwhile.
        if holdingFrame, let held = heldLook { deadline = held.since + Self.spriteHold }
        if let due = session.pendingDue { deadline = min(deadline ?? due, due) }
        if let wake = host.tick(now: now) { deadline = min(deadline ?? wake, wake) }
        if let wait = handOverWatch.deadline { deadline = min(deadline ?? wait, wait) }
        if let due = promptsDeadline { deadline = min(deadline ?? due, due) }
        if let overdue = work.expire(now: now) { deadline = min(deadline ?? overdue, overdue) }
        // Start-up's routine lines wait for the first frame, but never for the loop to sleep.
        logger.releaseHeldLines()
        return deadline
    }

    func drawFrame(at now: Double, moving: Bool) {
        holdingFrame = false
        // Nothing shown: what lies beneath was drawn when the skeleton went away, and a retained
        // frame must stay as it is.
        guard host.display != nil, var frame = session.frame(at: now) else { needsDraw = false; return }
        let layouts = screen.outputLayouts
        holdingFrame = holdsFrame(for: frame.look, now: now)
        if holdingFrame {
            // Held on purpose: the frame after the hold starts the schedule again, not late.
            pacer.stop()
            needsDraw = true
            return
        }
        frame.prompt = prompts.picture
        switch host.present(frame, as: { layouts.frame($0, for: $1, now: now) }) {
        case .deviceGone:
            needsDraw = true
            return
        case .complete:
            needsDraw = false
            if frame.prompt != nil { prompts.shown(now: clock.now) }
        case .incomplete: needsDraw = true
        }
        // A frame can start a motion of its own (a bar sliding to a new value, an indeterminate
        // bar) in a presentation that does not animate: the next frame is then due as well.
        if let late = pacer.drew(at: now, moving: moving || framesMove(at: now)) {
            logger.debug("frame late by \(JSONValue.formatNumber((late * 1000).rounded())) ms")
        }
        // The loop sleeps through the slots whose frames would repeat this one.
        if moving, !moreThanTheAnimationMoves, let next = pacer.nextFrame {
            pacer.skip(host.repeats(of: frame, from: next - now, interval: pacer.interval, slots: Self.repeatLookAhead,
                                    as: { layouts.frame($0, for: $1, now: now) }))
        }
    }

    /// Whether the frame on screen stays because `look` is new and its pictures or texts are being
    /// made. Only once a first frame is up: at start, the skeleton comes first.
    private func holdsFrame(for look: SkeletonLook, now: Double) -> Bool {
        guard host.firstFrameShown else { return false }
        if let held = heldLook, held.look == look { return now - held.since < Self.spriteHold && awaitsSprites(look) }
        guard awaitsSprites(look) else {
            heldLook = nil
            return false
        }
        if heldLook?.look != look { heldLook = (look, now) }
        return true
    }

    /// Some output would draw `look` (as its own layouts make it) with pictures or texts still
    /// being made. The closure is not kept: no context is allocated for it each frame.
    private func awaitsSprites(_ look: SkeletonLook) -> Bool {
        let layouts = screen.outputLayouts
        return host.awaitsSprites(look) { look, output in layouts.look(look, for: output) }
    }

    func handle(_ event: Session.Event) {
        switch event {
        case .appeared:
            host.reacquire()
            didAppear()
            offerAgentQuestions()
        case .disappeared(let retained):
            prompts.hidden()
            markHidden(true)
            needsDraw = false
            if retained { host.release(retainingPicture: true) } else { host.close() }
            host.lastChanceForStartFrames()
        case .settled:
            needsDraw = true
        }
    }

    func handleSignal(_ signal: Int32) {
        if signal == SystemCalls.hangUpSignal {
            logger.info("SIGHUP: reloading")
            reloadInTurn()
        } else if goingDown != nil {
            // Spared by systemd-shutdown ('@'); a stop by hand while the system goes down would
            // uncover the console for its last seconds.
            logger.notice("signal \(signal): the system is going down; the skeleton stays until the power is off")
        } else {
            logger.info("signal \(signal): stopping")
            running = false
        }
    }

    /// Writes or removes the hidden mark's file before the hide or show is answered (a crash
    /// right after must find it), when it changes.
    func markHidden(_ hidden: Bool) {
        guard hidden != hiddenMarkWritten else { return }
        hiddenMarkWritten = hidden
        let mark = settings.hiddenMark
        do {
            if hidden { try mark.set() } else { try mark.clear() }
        } catch {
            logger.debug("cannot record the hidden state: \(error)")
        }
    }

    func didAppear() {
        markHidden(false)
        needsDraw = true
        if debugTree, let look = session.look { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
    }
}
