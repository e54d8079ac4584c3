import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// The frame cache at start: cached first frames shown before the layout is parsed, and the
/// entries a start missed written once the first frame is up.
extension Daemon {
    /// An entry the start missed: the output size and where its frame goes.
    struct FrameCacheWrite: Equatable {
        var size: Size
        var path: String
    }

    var frameCache: FrameCache? { FrameCache(directory: settings.frameCacheDirectory) }

    /// Puts each output's cached frame of the start layout on screen; the outputs without one
    /// are remembered, to be written once their first frame is drawn.
    func showCachedStartFrames(_ reference: String) {
        guard let cache = frameCache, let source = store.source(of: reference) else { return }
        startSource = source
        guard let display else { return }
        let (layoutName, layoutText, _) = source
        var shown = 0
        for compositor in compositors {
            let output = compositor.output
            let path = cache.path(layoutName: layoutName, layoutText: layoutText, size: output.size)
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

    /// Renders the start layout's first frame for each size that missed, with a renderer of
    /// its own (the outputs' renderers keep their frame state), and writes it. A directory
    /// that is not writable yet (a read-only root early in boot) gets a second chance when
    /// the skeleton is hidden, after the display was handed over.
    func writeFrameCache(lastChance: Bool) {
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

    /// `shownAt`: when the frame went on screen, if before now (CLOCK_MONOTONIC seconds).
    func logFirstFrame(on display: any Display, from source: String?, shownAt: Double? = nil) {
        firstFrameLogged = true
        mark("first frame presented")
        let earlier = shownAt.map { max(0, SystemCalls.monotonicSeconds() - $0) } ?? 0
        let age = SystemCalls.processAgeSeconds().map { "\(JSONValue.formatNumber((($0 - earlier) * 1000).rounded())) ms after process start" }
        let details = [age, source.map { "from \($0)" }].compactMap { $0 }.joined(separator: ", ")
        logger.info("first frame on \(display.backendName)\(details.isEmpty ? "" : " (\(details))")")
        logger.releaseHeldLines()
    }
}
