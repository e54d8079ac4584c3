#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// Opening, handing over, taking back and closing the display.
extension Daemon {
    func openDisplay() {
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

    func attach(_ d: any Display) {
        display = d
        compositors = d.outputs.map(OutputCompositor.init)
        displayDeadline = nil
        displayRetry = nil
        displayRetryInterval = 0.5
        waitAnnounced = false
        needsDraw = true
        for o in d.outputs { logger.info("output \(o.name): \(o.size) (\(d.backendName))") }
        planFrameCacheWrites(for: d)
    }

    func handle(_ event: Session.Event) {
        switch event {
        case .appeared:
            reacquireDisplay()
            didAppear()
        case .disappeared(let retained):
            markHidden(true)
            needsDraw = false
            if retained { releaseDisplay(retainingPicture: true) } else { closeDisplay() }
            // The display is the app's now; the cache entry that could not be written at start
            // is tried once more (the root is usually writable by then).
            if !frameCacheWrites.isEmpty {
                writeFrameCache(lastChance: true)
                if bootRecordLocation != nil { settleBootRecord() }
            }
        }
    }

    /// `hide --retain`: the last frame stays, master is dropped; a later show dissolves from it.
    func releaseDisplay(retainingPicture: Bool) {
        for c in compositors { c.keepShadowAsBeneath() }
        display?.release(retainingPicture: retainingPicture)
        displayReleased = true
    }

    /// A hide: the console comes back, and the device is let go entirely (master, buffers,
    /// descriptor), so the next program finds it free. A later show opens it again.
    func closeDisplay() {
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
    func reacquireDisplay() {
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
    var hiddenMarkerPath: String { settings.hiddenMarkerPath }

    func markHidden(_ hidden: Bool) {
        do {
            if hidden { try SystemCalls.createFile(hiddenMarkerPath) }
            else if SystemCalls.fileExists(hiddenMarkerPath) { try SystemCalls.unlink(hiddenMarkerPath) }
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
