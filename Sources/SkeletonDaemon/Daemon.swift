#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// `skeletond run`: one poll loop over the control socket, its clients, a signalfd, a frame
/// timerfd and the display's descriptor. Nothing blocks; when nothing moves it sleeps with
/// the timer disarmed.
public final class Daemon {
    public internal(set) var settings: Settings
    let settingsSource: SettingsSource
    let logger: Logger
    let clock: any MonotonicClock
    let provider: any DisplayProvider
    let session = Session()
    let store: LayoutStore
    var display: (any Display)?
    var compositors: [OutputCompositor] = []
    var socket: ControlSocket?
    var signalFD: Int32 = -1
    var timerFD: Int32 = -1
    var clients: [Int32: ClientConnection] = [:]
    var clientCounter = 0
    var running = true
    var needsDraw = false
    var nextFrame: Double?
    var lastDraw: Double?
    var waiters: [Waiter] = []
    var overridesInForce = PresentationOverrides()
    let startTime: Double
    var framesDrawn = 0
    var framesLate = 0
    var frameTimes: [Double] = []
    var displayDeadline: Double?
    /// While waiting for a display: when to look again even without an inotify event (a card
    /// node can appear before its connectors are probed).
    var displayRetry: Double?
    var displayRetryInterval = 0.5
    var waitAnnounced = false
    var firstFrameLogged = false
    /// The start layout's file (the frame cache keys on it), its look, and the frame-cache
    /// entries its start missed, written once a frame is up.
    var startSource: (name: String, text: [UInt8], path: String?)?
    var startLook: SkeletonLook?
    var frameCacheWrites: [FrameCacheWrite] = []
    var frameCacheWriteTried = false
    /// Where this start's boot record goes (see `BootRecord`); nil once written or not wanted.
    public var bootRecordLocation: BootRecord.Location?
    var pendingBootRecord: BootRecord?
    /// True after the display was handed back (hide); the next appearance takes it again.
    var displayReleased = false
    let debugTree: Bool

    static let maximumClients = 256

    struct Waiter {
        var client: Int32
        var ticket: Int
        var id: JSONValue?
        var until: SessionState
        /// A show is answered only once a frame drawn after it is on screen.
        var afterFrame: Int
    }

    /// Where settings come from: a file (or built-in defaults) and the command-line flags on top.
    public struct SettingsSource: Sendable {
        public var path: String?
        public var pathIsDefault: Bool
        public var apply: @Sendable (inout Settings) -> Void

        public init(path: String?, pathIsDefault: Bool, apply: @escaping @Sendable (inout Settings) -> Void) {
            self.path = path
            self.pathIsDefault = pathIsDefault
            self.apply = apply
        }

        /// The settings now; a missing default file means built-in defaults.
        public func load() -> Result<Settings, LayoutError> {
            var settings = Settings()
            if let path {
                if SystemCalls.fileExists(path) || !pathIsDefault {
                    switch Settings.load(path: path) {
                    case .success(let s): settings = s
                    case .failure(let e): return .failure(e)
                    }
                }
            }
            apply(&settings)
            return .success(settings)
        }
    }

    public init(settingsSource: SettingsSource, settings: Settings, logger: Logger, clock: any MonotonicClock = SystemClock(),
                provider: any DisplayProvider = MemoryDisplayProvider()) {
        self.settingsSource = settingsSource
        self.settings = settings
        self.logger = logger
        self.clock = clock
        self.provider = provider
        self.store = LayoutStore(directory: settings.layoutsDirectory)
        self.startTime = clock.now
        self.debugTree = SystemCalls.environment("SKELETON_DEBUG") != nil
    }

    // MARK: Start and stop

    /// Listens on the socket, opens the display, puts the start layout's first frame on it
    /// (from the frame cache when it can, before the layout is parsed), and tells systemd we
    /// are ready. The socket comes first so that anything wrong with it stops the daemon
    /// before the display is touched (unless the boot record showed a frame already: the
    /// caller then puts the console back).
    public func start() throws(DaemonError) {
        mark("daemon created")
        do {
            signalFD = try SystemCalls.signalDescriptor()
            timerFD = try SystemCalls.timerDescriptor()
        } catch {
            throw DaemonError("cannot set up signals and timers: \(error)")
        }
        if let activated = ControlSocket.activated(path: settings.socketPath, group: settings.socketGroup) {
            socket = activated
            logger.info("using the control socket passed by systemd (\(settings.socketPath))")
        } else {
            socket = try ControlSocket.create(path: settings.socketPath, mode: settings.socketMode, group: settings.socketGroup)
            logger.info("listening on \(settings.socketPath)")
        }
        mark("socket listening")
        openDisplay()
        mark("display open")
        var startLayout = settings.startLayout
        if let start = startLayout, SystemCalls.fileExists(hiddenMarkerPath) {
            // Restarted (Restart=on-failure) after the app took over: showing the skeleton
            // again would cover the app. The marker lives in /run, so a new boot shows it.
            logger.notice("the skeleton was hidden before this daemon started (\(hiddenMarkerPath)); not showing \(start)")
            startLayout = nil
        }
        if let start = startLayout {
            if let display, let shownAt = provider.bootFrameShownAt {
                // A start from a plan writes the record over it.
                if !provider.bootFrameFromPlan { bootRecordLocation = nil }
                logFirstFrame(on: display, from: provider.bootFrameFromPlan ? "the boot plan" : "the boot record", shownAt: shownAt)
                // Keyed like the frame cache, for a display that comes later (a native driver
                // replacing simpledrm, a reopen after hide).
                if frameCache != nil { startSource = store.source(of: start) }
            } else {
                showCachedStartFrames(start)
            }
            if !firstFrameLogged {
                showStartLayout(start)
                if display != nil { drawFrame(at: clock.now, moving: session.isMoving(at: clock.now)) }
            }
        }
        // After a frame from the cache, the layout is parsed now.
        if let start = startLayout, session.look == nil { showStartLayout(start) }
        mark("start layout loaded")
        SystemdNotifier().notify(["READY": "1", "STATUS": readinessStatus], logger: logger)
    }

    /// Seconds since this process started (10 ms resolution), from /proc.
    public static func processAgeSeconds() -> Double? { SystemCalls.processAgeSeconds() }

    /// Start-up timing at debug level: monotonic milliseconds since the daemon was created.
    func mark(_ step: String) {
        logger.debug("start-up: \(step) at +\(JSONValue.formatNumber(((clock.now - startTime) * 10000).rounded() / 10)) ms")
    }

    var readinessStatus: String {
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
        // Frame cache entries are keyed on the file, so a broken one's fallback is not cached.
        if fromFile && startSource != nil {
            startLook = look
        } else {
            startSource = nil
            frameCacheWrites = []
        }
        didAppear()
    }

    /// Runs until SIGTERM, SIGINT or `quit`; then releases the display and removes the socket.
    public func run() {
        while running {
            iterate()
        }
        shutdown()
    }

    /// Lets go of the display (the console comes back), the clients and the socket.
    public func shutdown() {
        for (_, client) in clients { _ = client.writePending(); SystemCalls.close(client.fd) }
        clients.removeAll()
        if let display {
            if !displayReleased { display.release(retainingPicture: false) }
            if session.retained { logger.info("exiting with the frame retained: it stays on kernels with DRM CLOSEFB (6.8 and later)") }
            display.close()
        }
        socket?.close()
        logger.info("stopped")
        logger.releaseHeldLines()
    }

    // MARK: The loop

    func iterate() {
        let now = clock.now
        for event in session.advance(to: now) { handle(event) }
        resolveWaiters()
        if display == nil, let retry = displayRetry, now >= retry {
            displayRetry = nil
            openDisplay()
        }
        if let deadline = displayDeadline, now >= deadline {
            displayDeadline = nil
            if settings.backend == .drm {
                logger.warning("no display appeared within \(JSONValue.formatNumber(settings.displayWaitSeconds)) s; still waiting for one")
            } else {
                logger.warning("no display appeared within \(JSONValue.formatNumber(settings.displayWaitSeconds)) s; drawing into memory")
                attach(MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath))
            }
        }
        let moving = session.isMoving(at: now)
        // Changes from commands wait for the next frame slot too: a burst of updates must not
        // draw faster than the frame-rate cap.
        let slot = lastDraw.map { $0 + frameInterval - 0.0005 } ?? now
        if (needsDraw || moving) && now >= max(slot, (moving ? nextFrame : nil) ?? slot) {
            drawFrame(at: now, moving: moving)
            resolveWaiters()
        }
        if firstFrameLogged && !frameCacheWrites.isEmpty && !frameCacheWriteTried {
            frameCacheWriteTried = true
            writeFrameCache(lastChance: false)
        }
        if firstFrameLogged && bootRecordLocation != nil { settleBootRecord() }
        if !session.isMoving(at: now) && !needsDraw { nextFrame = nil }
        var deadline = nextFrame
        // A frame held back by a pending flip is drawn when the flip event wakes the loop; an
        // output that was handed over or lost is not polled on a timer.
        let presentable = display?.outputs.contains { $0.canPresent } ?? false
        if !presentable { deadline = nil }
        if needsDraw, presentable, let last = lastDraw { deadline = min(deadline ?? .infinity, last + frameInterval) }
        if let due = session.pendingDue { deadline = min(deadline ?? due, due) }
        if let d = display, let t = d.tick(now: now) { deadline = min(deadline ?? t, t) }
        if let d = displayDeadline { deadline = min(deadline ?? d, d) }
        if display == nil, let r = displayRetry { deadline = min(deadline ?? r, r) }
        try? SystemCalls.armTimer(timerFD, at: deadline)
        // Start-up's routine lines wait for the first frame, but never for the loop to sleep.
        logger.releaseHeldLines()
        pollOnce()
    }

    var frameInterval: Double { 1 / Double(settings.maxFPS) }

    func drawFrame(at now: Double, moving: Bool) {
        // Nothing shown: what lies beneath was drawn when the skeleton went away, and a retained
        // frame must stay as it is.
        guard let display, let frame = session.frame(at: now) else { needsDraw = false; return }
        lastDraw = now
        var allPresented = true
        var deviceGone = false
        for compositor in compositors {
            guard compositor.output.canPresent else { allPresented = false; continue }
            do {
                if try !compositor.present(frame) { allPresented = false }
            } catch {
                logger.error("present on \(compositor.output.name): \(error)")
                deviceGone = deviceGone || error.deviceGone
            }
        }
        if deviceGone {
            // Unplugged, or simpledrm replaced by the native driver: look for the new card.
            logger.warning("the display device went away; looking for another one")
            closeDisplay()
            openDisplay()
            return
        }
        if !firstFrameLogged { logFirstFrame(on: display, from: nil) }
        needsDraw = !allPresented
        framesDrawn += 1
        frameTimes.append(now)
        if frameTimes.count > 240 { frameTimes.removeFirst(frameTimes.count - 240) }
        let interval = frameInterval
        if moving {
            if let scheduled = nextFrame, now > scheduled + interval {
                framesLate += 1
                logger.debug("frame late by \(JSONValue.formatNumber(((now - scheduled) * 1000).rounded())) ms")
            }
            var next = (nextFrame ?? now) + interval
            if next <= now { next = now + interval }
            nextFrame = next
        } else {
            nextFrame = nil
        }
    }

    func pollOnce() {
        var fds: [pollfd] = []
        func add(_ fd: Int32, _ events: Int32) { fds.append(pollfd(fd: fd, events: Int16(events), revents: 0)) }
        add(signalFD, POLLIN)
        add(timerFD, POLLIN)
        if let socket { add(socket.fd, clients.count < Daemon.maximumClients ? POLLIN : 0) }
        if let fd = display?.eventDescriptor { add(fd, POLLIN) }
        if let fd = provider.watchDescriptor, display == nil { add(fd, POLLIN) }
        let clientOrder = Array(clients.keys)
        for fd in clientOrder {
            let c = clients[fd]!
            add(fd, (c.closeAfterFlush ? 0 : POLLIN) | (c.hasPendingOutput ? POLLOUT : 0))
        }
        do { _ = try SystemCalls.poll(&fds, timeoutMilliseconds: -1) } catch {
            logger.error("\(error)")
            return
        }
        for entry in fds where entry.revents != 0 {
            let fd = entry.fd
            if fd == signalFD { handleSignals() }
            else if fd == timerFD { SystemCalls.drainTimer(timerFD) }
            else if fd == socket?.fd { acceptClients() }
            else if fd == display?.eventDescriptor {
                do { try display?.handleEvents() } catch { logger.error("display events: \(error)") }
            } else if fd == provider.watchDescriptor {
                provider.drainWatch()
                if display == nil { openDisplay() }
            } else if let client = clients[fd] {
                service(client, events: Int32(entry.revents))
            }
        }
    }

    func handleSignals() {
        while let signal = SystemCalls.readSignal(signalFD) {
            switch signal {
            case SIGHUP:
                logger.info("SIGHUP: reloading")
                _ = reload()
            default:
                logger.info("signal \(signal): stopping")
                running = false
            }
        }
    }
}
