import SkeletonSettings
import SkeletonBoot
import SkeletonDisplay
import SkeletonLayout
import SkeletonSystem

/// The start layout's first frame outside the loop, through `StartFrames`: the boot record's
/// frame adopted or cached frames shown before the layout is parsed, and once the first frame
/// is up, the entries the start missed and the record for the next start.
extension DisplayHost {
    /// The display came up with the start layout's frame already on it (from the boot record,
    /// before the daemon started): logs it. False when it did not.
    func adoptBootFrame(source: () -> StartSource?) -> Bool {
        guard let display, let adopted = start.adoptBootFrame(source: source) else { return false }
        logFirstFrame(on: display, from: adopted.chosenAtBoot ? "the boot plan" : "the boot record",
                      shownAt: adopted.shownAt)
        return true
    }

    /// Puts each output's cached frame of the start layout on screen, but on those `skipping`
    /// names (they show a layout of their own).
    func showCachedStartFrames(source: () -> StartSource?, skipping: (String) -> Bool) {
        guard let display else {
            _ = start.showCachedFrames(on: [], source: source, log: logger)
            return
        }
        // The shadows do not hold these frames: the next one is drawn whole.
        for compositor in compositors { compositor.invalidate() }
        if start.showCachedFrames(on: display.outputs.filter { !skipping($0.name) }, source: source, log: logger) {
            logFirstFrame(on: display, from: "the frame cache")
        }
    }

    /// The start layout is parsed and shown (`fromFile`: not the built-in fallback).
    func startLayoutShown(_ look: SkeletonLook, fromFile: Bool) {
        start.startLayoutShown(look.layout, overrides: look.overrides, fromFile: fromFile)
    }

    /// Once the first frame is up: the missed entries, then the boot record.
    func settleStartFrames() {
        guard firstFrameShown else { return }
        start.settle(log: logger)
    }

    /// The display is the app's now: what could not be written at start is tried once more.
    func lastChanceForStartFrames() { start.lastChance(log: logger) }

    /// The first frame is up: says so, with the process's age and CPU time. `shownAt`: when the
    /// frame went on screen, if before now (CLOCK_MONOTONIC seconds).
    func logFirstFrame(on display: any Display, from source: String?, shownAt: Double? = nil) {
        firstFrameShown = true
        mark("first frame presented")
        let earlier = shownAt.map { max(0, SystemCalls.monotonicSeconds() - $0) } ?? 0
        let age = SystemCalls.processAgeSeconds().map { "\(JSONValue.formatNumber((($0 - earlier) * 1000).rounded())) ms after process start" }
        // A frame shown earlier (the boot record's) had less CPU time behind it than now.
        let cpu = shownAt == nil ? "\(JSONValue.formatNumber((SystemCalls.processCPUSeconds() * 1000).rounded())) ms of CPU" : nil
        let details = [age, cpu, source.map { "from \($0)" }].compactMap { $0 }.joined(separator: ", ")
        logger.info("first frame on \(display.backendName)\(details.isEmpty ? "" : " (\(details))")")
        logger.releaseHeldLines()
    }
}
