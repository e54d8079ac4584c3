import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The start layout's first frame outside the loop: cached frames shown before the layout is
/// parsed, the entries a start missed written once the first frame is up, and the boot record
/// that lets the next start show that frame first thing.
extension DisplayHost {
    /// An entry the start missed: the output size and where its frame goes.
    struct FrameCacheWrite: Equatable {
        var size: Size
        var path: String
    }

    var frameCache: FrameCache? { FrameCache(directory: settings.frameCacheDirectory) }

    /// The display came up with the start layout's frame already on it (from the boot record
    /// or plan, before the daemon started): logs it, and keeps the source for a later display.
    /// False when it did not.
    func adoptBootFrame(source: () -> (name: String, text: [UInt8], path: String?)?) -> Bool {
        guard let display, let shownAt = provider.bootFrameShownAt else { return false }
        // A start from a plan writes the record over it.
        if !provider.bootFrameFromPlan { bootRecordLocation = nil }
        logFirstFrame(on: display, from: provider.bootFrameFromPlan ? "the boot plan" : "the boot record", shownAt: shownAt)
        // Keyed like the frame cache, for a display that comes later (a native driver
        // replacing simpledrm, a reopen after hide).
        if frameCache != nil { startSource = source() }
        return true
    }

    /// Puts each output's cached frame of the start layout on screen; the outputs without one
    /// are remembered, to be written once their first frame is drawn.
    func showCachedStartFrames(source: (name: String, text: [UInt8], path: String?)?) {
        guard let cache = frameCache, let source else { return }
        startSource = source
        guard let display else { return }
        var shown = 0
        for compositor in compositors {
            let output = compositor.output
            let path = cache.path(layoutName: source.name, layoutText: source.text, size: output.size)
            // The shadow does not hold this frame: the next one is drawn whole.
            compositor.invalidate()
            guard let entry = cache.entry(path, size: output.size) else {
                planFrameCacheWrite(FrameCacheWrite(size: output.size, path: path))
                continue
            }
            do {
                if try output.presentWhole({ entry.read(into: $0) }) {
                    shown += 1
                } else if output.canPresent {
                    // The entry could not be read whole: it is written anew.
                    planFrameCacheWrite(FrameCacheWrite(size: output.size, path: path))
                }
            } catch {
                logger.error("present on \(output.name): \(error)")
            }
        }
        if shown > 0 && shown == compositors.count { logFirstFrame(on: display, from: "the frame cache") }
    }

    /// The start layout is parsed and shown: its look is what missed entries are rendered
    /// from. A fallback (a broken file) is not cached, since entries are keyed on the file.
    func startLayoutShown(_ look: SkeletonLook, fromFile: Bool) {
        if fromFile && startSource != nil {
            startLook = look
        } else {
            startSource = nil
            frameCacheWrites = []
        }
    }

    /// A display that appeared after the start (a late driver, the memory fallback) had no
    /// cache to look at: the start layout's frame is written for its outputs that lack one.
    func planFrameCacheWrites(for display: any Display) {
        guard startLook != nil, let source = startSource, let cache = frameCache else { return }
        for output in display.outputs {
            let path = cache.path(layoutName: source.name, layoutText: source.text, size: output.size)
            if cache.entry(path, size: output.size) == nil {
                frameCacheWriteTried = false
                planFrameCacheWrite(FrameCacheWrite(size: output.size, path: path))
            }
        }
    }

    private func planFrameCacheWrite(_ write: FrameCacheWrite) {
        if !frameCacheWrites.contains(write) { frameCacheWrites.append(write) }
    }

    /// Once the first frame is up: the missed entries, then the boot record.
    func settleStartFrames() {
        guard firstFrameShown else { return }
        if !frameCacheWrites.isEmpty && !frameCacheWriteTried {
            frameCacheWriteTried = true
            writeFrameCache(lastChance: false)
        }
        if bootRecordLocation != nil { settleBootRecord() }
    }

    /// The display is the app's now: the cache entry that could not be written at start is
    /// tried once more (the root is usually writable by then).
    func lastChanceForStartFrames() {
        guard !frameCacheWrites.isEmpty else { return }
        writeFrameCache(lastChance: true)
        if bootRecordLocation != nil { settleBootRecord() }
    }

    /// Renders the start layout's first frame for each size that missed, with a renderer of
    /// its own (the outputs' renderers keep their frame state), and writes it. A directory
    /// that is not writable yet (a read-only root early in boot) gets a second chance when
    /// the skeleton is hidden, after the display was handed over.
    private func writeFrameCache(lastChance: Bool) {
        guard let startLook, let cache = frameCache else {
            frameCacheWrites = []
            return
        }
        var failed: [FrameCacheWrite] = []
        for write in frameCacheWrites {
            do {
                // A directory that cannot be made shows up as the failure to write into it.
                try? SystemCalls.makeDirectories(FrameCache.directory(of: write.path), mode: 0o755)
                try cache.storeFirstFrame(of: startLook.layout, overrides: startLook.overrides, size: write.size, at: write.path)
                logger.info("frame cache: wrote \(write.path) for \(write.size)")
            } catch {
                failed.append(write)
                if lastChance {
                    logger.warning("frame cache: cannot write \(write.path): \(error)")
                } else {
                    logger.info("frame cache: cannot write \(write.path) yet (\(error.text)); trying again when the skeleton is hidden")
                }
            }
        }
        frameCacheWrites = lastChance ? [] : failed
    }

    /// Notes what the record says as soon as the first frame is up (by hide, the display may
    /// be closed), and writes it once the frame cache entries it names exist.
    private func settleBootRecord() {
        guard let location = bootRecordLocation else { return }
        if pendingBootRecord == nil {
            guard let record = bootRecord(for: location) else {
                bootRecordLocation = nil
                return
            }
            pendingBootRecord = record
        }
        guard frameCacheWrites.isEmpty, let record = pendingBootRecord else { return }
        bootRecordLocation = nil
        pendingBootRecord = nil
        guard record.outputs.allSatisfy({ FrameCache.openEntry($0.framePath) != nil }) else {
            logger.debug("boot record: not written, a frame cache entry is missing")
            return
        }
        do {
            try record.write(to: location)
            logger.info("boot record: wrote \(location.path)")
        } catch {
            logger.warning("boot record: cannot write \(location.path): \(error)")
        }
    }

    /// nil when this start cannot be replayed from a record: another cache directory than the
    /// one looked in before the settings were read, no start layout from a file (or the
    /// built-in one), or no DRM display.
    private func bootRecord(for location: BootRecord.Location) -> BootRecord? {
        guard settings.frameCacheDirectory == location.directory, let cache = frameCache,
              startLook != nil, let source = startSource, let drm = display as? DRMDisplay else { return nil }
        let outputs = drm.drmOutputs.map { output in
            let facts = output.bootRecord
            return BootRecord.Output(connectorID: facts.connectorID, crtcID: facts.crtcID, modeIsPreferred: facts.modeIsPreferred,
                                     modeBytes: facts.modeBytes,
                                     framePath: cache.path(layoutName: source.name, layoutText: source.text, size: output.size))
        }
        return BootRecord(hiddenMarkerPath: settings.hiddenMark.path, layoutPath: source.path,
                          layoutHash: BootRecord.layoutHash(source.text), devicePath: drm.path, outputs: outputs)
    }

    /// `shownAt`: when the frame went on screen, if before now (CLOCK_MONOTONIC seconds).
    func logFirstFrame(on display: any Display, from source: String?, shownAt: Double? = nil) {
        firstFrameShown = true
        mark("first frame presented")
        let earlier = shownAt.map { max(0, SystemCalls.monotonicSeconds() - $0) } ?? 0
        let age = SystemCalls.processAgeSeconds().map { "\(JSONValue.formatNumber((($0 - earlier) * 1000).rounded())) ms after process start" }
        let details = [age, source.map { "from \($0)" }].compactMap { $0 }.joined(separator: ", ")
        logger.info("first frame on \(display.backendName)\(details.isEmpty ? "" : " (\(details))")")
        logger.releaseHeldLines()
    }
}
