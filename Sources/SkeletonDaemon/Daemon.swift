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
    public private(set) var settings: Settings
    let settingsSource: SettingsSource
    let logger: Logger
    let clock: any MonotonicClock
    let provider: any DisplayProvider
    let session = Session()
    let store: LayoutStore
    private(set) var display: (any Display)?
    private(set) var compositors: [OutputCompositor] = []
    private var socket: ControlSocket?
    private var signalFD: Int32 = -1
    private var timerFD: Int32 = -1
    private var clients: [Int32: ClientConnection] = [:]
    private var clientCounter = 0
    private var running = true
    private var needsDraw = false
    private var nextFrame: Double?
    private var lastDraw: Double?
    private var waiters: [Waiter] = []
    private var overridesInForce = PresentationOverrides()
    private let startTime: Double
    private var framesDrawn = 0
    private(set) var framesLate = 0
    private var frameTimes: [Double] = []
    private var displayDeadline: Double?
    /// While waiting for a display: when to look again even without an inotify event (a card
    /// node can appear before its connectors are probed).
    private var displayRetry: Double?
    private var displayRetryInterval = 0.5
    private var waitAnnounced = false
    private var firstFrameLogged = false
    /// True after the display was handed back (hide); the next appearance takes it again.
    private var displayReleased = false
    private let debugTree: Bool

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

    /// Opens the socket and the display, shows the start layout, and tells systemd we are ready.
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
        if let start = settings.startLayout {
            if SystemCalls.fileExists(hiddenMarkerPath) {
                // Restarted (Restart=on-failure) after the app took over: showing the skeleton
                // again would cover the app. The marker lives in /run, so a new boot shows it.
                logger.notice("the skeleton was hidden before this daemon started (\(hiddenMarkerPath)); not showing \(start)")
            } else {
                showAtStart(start)
            }
        }
        mark("start layout loaded")
        SystemdNotifier().notify(["READY": "1", "STATUS": readinessStatus], logger: logger)
    }

    /// Seconds since this process started (10 ms resolution), from /proc.
    public static func processAgeSeconds() -> Double? { SystemCalls.processAgeSeconds() }

    /// Start-up timing at debug level: monotonic milliseconds since the daemon was created.
    private func mark(_ step: String) {
        logger.debug("start-up: \(step) at +\(JSONValue.formatNumber(((clock.now - startTime) * 10000).rounded() / 10)) ms")
    }

    private var readinessStatus: String {
        let outputs = display.map { d in d.outputs.map { "\($0.name) \($0.size)" }.joined(separator: ", ") } ?? "waiting for a display"
        return "\(session.state.rawValue); \(display?.backendName ?? "no display"): \(outputs)"
    }

    private func openDisplay() {
        do {
            if let d = try provider.open(settings: settings, logger: logger) {
                attach(d)
                return
            }
        } catch {
            logger.error("display: \(error)")
        }
        if settings.backend == .memory {
            attach(MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath))
        } else if provider.watchDescriptor != nil {
            // inotify catches a new card node; timed retries (backing off to 8 s) catch a card
            // whose connectors were not probed yet when its node appeared.
            displayRetry = clock.now + displayRetryInterval
            displayRetryInterval = min(displayRetryInterval * 2, 8)
            if displayDeadline == nil && !waitAnnounced {
                waitAnnounced = true
                displayDeadline = clock.now + settings.displayWaitSeconds
                logger.notice("no display yet; waiting up to \(JSONValue.formatNumber(settings.displayWaitSeconds)) s for one to appear")
            }
        } else if settings.backend == .auto {
            logger.notice("no display found; drawing into memory")
            attach(MemoryDisplay(size: settings.memorySize, snapshotPath: settings.snapshotPath))
        }
    }

    private func attach(_ d: any Display) {
        display = d
        compositors = d.outputs.map(OutputCompositor.init)
        displayDeadline = nil
        displayRetry = nil
        displayRetryInterval = 0.5
        waitAnnounced = false
        needsDraw = true
        for o in d.outputs { logger.info("output \(o.name): \(o.size) (\(d.backendName))") }
    }

    private func showAtStart(_ reference: String) {
        let loaded: (name: String, layout: Layout)
        switch store.load(reference) {
        case .success(let l): loaded = l
        case .failure(let error):
            logger.error("start layout \"\(reference)\": \(error.message)")
            logger.warning("showing the built-in default layout instead")
            loaded = LayoutStore.builtin
        }
        let look = SkeletonLook(layoutName: loaded.name, layout: loaded.layout)
        _ = session.show(look, delay: 0, transition: .none, now: clock.now)
        didAppear()
    }

    /// Runs until SIGTERM, SIGINT or `quit`; then releases the display and removes the socket.
    public func run() {
        while running {
            iterate()
        }
        shutdown()
    }

    private func shutdown() {
        for (_, client) in clients { _ = client.writePending(); SystemCalls.close(client.fd) }
        clients.removeAll()
        if let display {
            if !displayReleased { display.release(retainingPicture: false) }
            if session.retained { logger.info("exiting with the frame retained: it stays on kernels with DRM CLOSEFB (6.8 and later)") }
            display.close()
        }
        socket?.close()
        logger.info("stopped")
    }

    // MARK: The loop

    private func iterate() {
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
        pollOnce()
    }

    private var frameInterval: Double { 1 / Double(settings.maxFPS) }

    private func drawFrame(at now: Double, moving: Bool) {
        // Nothing shown: what lies beneath was drawn when the skeleton went away, and a retained
        // frame must stay as it is.
        guard let display, let frame = session.frame(at: now) else { needsDraw = false; return }
        lastDraw = now
        var allPresented = true
        var deviceGone = false
        for compositor in compositors {
            guard compositor.output.canPresent else { allPresented = false; continue }
            let damage = compositor.draw(frame)
            do {
                if try !compositor.output.present(damage: damage) { allPresented = false }
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
        if !firstFrameLogged {
            firstFrameLogged = true
            mark("first frame presented")
            let age = SystemCalls.processAgeSeconds().map { " (\(JSONValue.formatNumber(($0 * 1000).rounded())) ms after process start)" } ?? ""
            logger.info("first frame on \(display.backendName)\(age)")
        }
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

    private func pollOnce() {
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

    private func handleSignals() {
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

    // MARK: Clients

    private func acceptClients() {
        guard let socket else { return }
        while clients.count < Daemon.maximumClients {
            let fd: Int32
            do {
                guard let accepted = try SystemCalls.accept(socket.fd) else { return }
                fd = accepted
            } catch {
                logger.warning("\(error)")
                return
            }
            clientCounter += 1
            let client = ClientConnection(fd: fd, number: clientCounter)
            clients[fd] = client
            if let credentials = try? SystemCalls.peerCredentials(fd), socket.admits(uid: credentials.uid, gid: credentials.gid) {
                logger.debug("client \(client.number) connected (uid \(credentials.uid), pid \(credentials.pid))")
            } else {
                let who = (try? SystemCalls.peerCredentials(fd)).map { "uid \($0.uid)" } ?? "an unknown peer"
                logger.warning("refused a control connection from \(who): only root and the socket's group may connect")
                client.reply(.error(id: nil, ProtocolError(.permissionDenied,
                    "permission denied: only root and members of the socket's group may control skeletond")))
                client.closeAfterFlush = true
                _ = client.writePending()
                drop(client)
            }
        }
    }

    private func service(_ client: ClientConnection, events: Int32) {
        if events & (POLLERR | POLLNVAL) != 0 { drop(client); return }
        if events & POLLIN != 0 || events & POLLHUP != 0 {
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                let n: Int?
                do { n = try buffer.withUnsafeMutableBytes { try SystemCalls.read(client.fd, into: $0) } } catch {
                    drop(client); return
                }
                guard let count = n else { break }
                if count == 0 {
                    // Peer gone both ways (POLLHUP): nobody can read the replies still owed.
                    if events & POLLHUP != 0 { drop(client); return }
                    client.closeAfterFlush = true
                    break
                }
                for event in client.framer.append(buffer[0..<count]) {
                    switch event {
                    case .line(let line): handleLine(line, from: client)
                    case .overlong:
                        client.reply(.error(id: nil, ProtocolError(.lineTooLong,
                            "request line longer than \(ClientConnection.lineLimit) bytes; the rest of that line is discarded")))
                    }
                }
                if count < buffer.count { break }
            }
        }
        flush(client)
    }

    private func flush(_ client: ClientConnection) {
        guard clients[client.fd] != nil else { return }
        if !client.writePending() { drop(client); return }
        if client.unreadBytes > ClientConnection.unreadLimit {
            logger.warning("client \(client.number) does not read its replies (\(client.unreadBytes) bytes unread); closing it")
            drop(client)
            return
        }
        if client.closeAfterFlush && !client.hasPendingOutput && !client.hasWaitingReplies { drop(client) }
    }

    private func drop(_ client: ClientConnection) {
        guard clients.removeValue(forKey: client.fd) != nil else { return }
        SystemCalls.close(client.fd)
        waiters.removeAll { $0.client == client.fd }
    }

    private func handleLine(_ line: [UInt8], from client: ClientConnection) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        switch RequestDecoder.decode(line: line) {
        case .failure(let failure):
            client.reply(.error(id: failure.id, failure.error))
        case .success(let request):
            execute(request, from: client)
        }
    }

    // MARK: Commands

    private func execute(_ request: Request, from client: ClientConnection) {
        let now = clock.now
        let id = request.id
        switch request.command {
        case .ping:
            client.reply(.ok(id: id, ["pong": true]))
        case .status:
            client.reply(.ok(id: id, statusFields(now: now)))
        case .tree:
            guard let look = session.lookInForce else {
                client.reply(.error(id: id, ProtocolError(.notShowing, "nothing is shown: show a layout first")))
                return
            }
            client.reply(.ok(id: id, ["tree": treeJSON(look)]))
        case .reload:
            let problems = reload()
            if problems.isEmpty { client.reply(.ok(id: id, ["reloaded": true])) }
            else { client.reply(.error(id: id, ProtocolError(.reloadFailed, problems.joined(separator: "; ") + " (the previous version stays in force)"))) }
        case .quit:
            client.reply(.ok(id: id, ["quitting": true]))
            _ = client.writePending()
            running = false
        case .show(let show):
            var look: SkeletonLook
            switch lookFor(layout: show.layout, overrides: show.overrides) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            look.overrides = overridesInForce.merged(with: show.overrides)
            let outcome = session.show(look, delay: show.delay,
                                       transition: show.transition ?? look.presentation.transition, now: now)
            overridesInForce = look.overrides
            needsDraw = true
            if outcome != .pending { reacquireDisplay() }
            if outcome == .shown { didAppear() }
            logger.info("show \(look.layoutName): \(outcome.rawValue)")
            var fields: [String: JSONValue] = ["state": .string(session.state.rawValue), "layout": .string(look.layoutName)]
            fields[outcome == .updated ? "updated" : outcome.rawValue] = true
            if show.wait && outcome != .updated {
                waiters.append(Waiter(client: client.fd, ticket: client.reserve(), id: id, until: .showing, afterFrame: framesDrawn))
                resolveWaiters()
            } else {
                client.reply(.ok(id: id, fields))
            }
        case .update(let update):
            guard session.state != .idle else {
                client.reply(.error(id: id, ProtocolError(.notShowing, "update while nothing is shown: use show first")))
                return
            }
            var look: SkeletonLook
            switch lookFor(layout: update.layout, overrides: update.overrides) {
            case .success(let l): look = l
            case .failure(let e): client.reply(.error(id: id, e)); return
            }
            look.overrides = overridesInForce.merged(with: update.overrides)
            session.update(look, now: now)
            overridesInForce = look.overrides
            if session.state == .showing || session.state == .hiding { reacquireDisplay() }
            needsDraw = true
            if debugTree { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
            client.reply(.ok(id: id, ["updated": true, "state": .string(session.state.rawValue), "layout": .string(look.layoutName)]))
        case .hide(let hide):
            let transition = hide.transition ?? session.lookInForce?.presentation.transition ?? .default
            let outcome = session.hide(transition: transition, retain: hide.retain, now: now)
            needsDraw = true
            logger.info("hide: \(outcome.rawValue)")
            switch outcome {
            case .retained:
                markHidden(true)
                releaseDisplay(retainingPicture: true)
            case .hiding:
                for c in compositors { c.clearBeneath() }
            case .cancelled:
                markHidden(true)
            case .hidden:
                handle(.disappeared(retained: false))
            default:
                break
            }
            if hide.wait && outcome == .hiding {
                waiters.append(Waiter(client: client.fd, ticket: client.reserve(), id: id, until: .idle, afterFrame: framesDrawn))
            } else {
                client.reply(.ok(id: id, ["state": .string(session.state.rawValue), outcome.rawValue: true]))
            }
        }
    }

    /// The look a show or update asks for: a named layout, or the one in force.
    private func lookFor(layout: String?, overrides: PresentationOverrides) -> Result<SkeletonLook, ProtocolError> {
        if let name = layout {
            switch store.load(name) {
            case .success(let l): return .success(SkeletonLook(layoutName: l.name, layout: l.layout))
            case .failure(let e): return .failure(e)
            }
        }
        if let current = session.lookInForce { return .success(current) }
        let fallback = settings.startLayout ?? "default"
        switch store.load(fallback) {
        case .success(let l): return .success(SkeletonLook(layoutName: l.name, layout: l.layout))
        case .failure:
            return .success(SkeletonLook(layoutName: LayoutStore.builtin.name, layout: LayoutStore.builtin.layout))
        }
    }

    private func handle(_ event: Session.Event) {
        switch event {
        case .appeared:
            reacquireDisplay()
            didAppear()
        case .disappeared(let retained):
            markHidden(true)
            needsDraw = false
            if retained { releaseDisplay(retainingPicture: true) } else { closeDisplay() }
        }
    }

    /// `hide --retain`: the last frame stays, master is dropped; a later show dissolves from it.
    private func releaseDisplay(retainingPicture: Bool) {
        for c in compositors { c.keepShadowAsBeneath() }
        display?.release(retainingPicture: retainingPicture)
        displayReleased = true
    }

    /// A hide: the console comes back, and the device is let go entirely (master, buffers,
    /// descriptor), so the next program finds it free. A later show opens it again.
    private func closeDisplay() {
        guard let d = display else { return }
        if d is MemoryDisplay {
            // Nothing to hand over in memory: it shows what lies beneath until the next show.
            if !displayReleased { d.release(retainingPicture: false) }
            displayReleased = true
            return
        }
        if !displayReleased { d.release(retainingPicture: false) }
        d.close()
        display = nil
        compositors = []
        displayReleased = false
    }

    /// Before a show or update: a display handed over, lost or closed is taken back.
    private func reacquireDisplay() {
        guard let display else {
            openDisplay()
            return
        }
        guard displayReleased || display.problem != nil else { return }
        do {
            try display.reacquire()
            displayReleased = false
            logger.info("took the display back")
        } catch {
            logger.error("taking the display back: \(error)")
        }
        for c in compositors { c.invalidate() }
    }

    /// Beside the socket: present while the skeleton is hidden, so a restarted daemon knows.
    private var hiddenMarkerPath: String {
        guard let slash = settings.socketPath.lastIndex(of: "/") else { return "hidden" }
        return String(settings.socketPath[...slash]) + "skeletond.hidden"
    }

    private func markHidden(_ hidden: Bool) {
        do {
            if hidden { try SystemCalls.createFile(hiddenMarkerPath) }
            else if SystemCalls.fileExists(hiddenMarkerPath) { try SystemCalls.unlink(hiddenMarkerPath) }
        } catch {
            logger.debug("cannot record the hidden state: \(error)")
        }
    }

    private func didAppear() {
        markHidden(false)
        needsDraw = true
        if debugTree, let look = session.look { logger.info("SKELETON_DEBUG tree: \(treeJSON(look).jsonText)") }
    }

    private func resolveWaiters() {
        guard !waiters.isEmpty else { return }
        let transitioning = session.isTransitioning
        var remaining: [Waiter] = []
        for w in waiters {
            guard let client = clients[w.client] else { continue }
            var reached = session.state == w.until && !transitioning
            var unshowable = false
            if reached && w.until == .showing, let display {
                // A display that cannot show it (handed over, master lost) answers at once.
                unshowable = displayReleased || display.problem != nil
                reached = unshowable || (framesDrawn > w.afterFrame && !needsDraw && display.outputs.allSatisfy(\.canPresent))
            }
            let superseded = (w.until == .showing && (session.state == .idle || session.state == .hiding))
                || (w.until == .idle && session.state == .showing)
            if reached || superseded {
                var fields: [String: JSONValue] = ["state": .string(session.state.rawValue)]
                fields[w.until == .showing ? "shown" : "hidden"] = .bool(reached && !unshowable)
                if unshowable, let problem = display?.problem { fields["problem"] = .string(problem) }
                client.fulfil(w.ticket, with: .ok(id: w.id, fields))
                flush(client)
            } else {
                remaining.append(w)
            }
        }
        waiters = remaining
    }

    /// Re-reads settings and layouts; broken files are reported and the old versions stay.
    func reload() -> [String] {
        var problems: [String] = []
        switch settingsSource.load() {
        case .success(let s):
            if s.socketPath != settings.socketPath { problems.append("the socket path changes only on restart") }
            var updated = s
            updated.socketPath = settings.socketPath
            settings = updated
            logger.level = s.logLevel
        case .failure(let e):
            problems += e.lines
        }
        problems += store.reload(directory: settings.layoutsDirectory)
        if let look = session.lookInForce, look.layoutName != LayoutStore.builtin.name,
           case .success(let fresh) = store.load(look.layoutName), fresh.layout != look.layout {
            var updatedLook = look
            updatedLook.layout = fresh.layout
            session.update(updatedLook, now: clock.now)
            needsDraw = true
        }
        for p in problems { logger.error("reload: \(p)") }
        return problems
    }

    // MARK: Reports

    private func statusFields(now: Double) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "state": .string(session.state.rawValue),
            "retained": .bool(session.retained),
            "framesDrawn": .number(Double(framesDrawn)),
            "framesLate": .number(Double(framesLate)),
            "frameRate": .number((frameRate(now: now) * 10).rounded() / 10),
            "uptime": .number(((now - startTime) * 1000).rounded() / 1000),
            "clients": .number(Double(clients.count)),
            "backend": .string(display?.backendName ?? "none"),
        ]
        if let look = session.lookInForce {
            fields["layout"] = .string(look.layoutName)
            fields["presentation"] = look.presentation.json(direction: look.layout.direction(for: look.presentation))
            fields["appearance"] = look.appearance.json
        }
        if let problem = display?.problem { fields["problem"] = .string(problem) }
        fields["outputs"] = .array(compositors.map { c in
            var o = c.output.statusFields
            o["name"] = .string(c.output.name)
            o["size"] = .string(c.output.size.description)
            o["framesPresented"] = .number(Double(c.output.framesPresented))
            return .object(o)
        })
        return fields
    }

    private func frameRate(now: Double) -> Double {
        let recent = frameTimes.filter { $0 > now - 1 }
        guard recent.count >= 2, let first = recent.first, let last = recent.last, last > first else { return 0 }
        return Double(recent.count - 1) / (last - first)
    }

    private func treeJSON(_ look: SkeletonLook) -> JSONValue {
        let size = compositors.first?.output.size ?? look.layout.canvas.size
        var resolver = LayoutResolver(layout: look.layout, outputSize: size, appearance: look.appearance,
                                      stagger: look.presentation.animation.stagger)
        let resolved = resolver.resolve()
        return ["layout": .string(look.layoutName), "output": [.number(Double(size.width)), .number(Double(size.height))],
                "root": resolved.root.json]
    }
}
