import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The start layout's first frame, from before the daemon runs to the record the next start
/// replays: the one object the daemon's boot path and display host talk to.
///
/// 1. `atBoot` (first thing in `main`): finds this start's boot record and, when everything it
///    names is as it was, puts its frames on screen (`BootDisplay`), or on the firmware's
///    framebuffer while no DRM output can show them (`BootFramebuffer`).
/// 2. The display provider opens the DRM display or the framebuffer adopting that
///    (`takeBootDisplay`, `takeBootFramebuffer`) and reports what it opened (`opened`,
///    `openedFramebuffer`): whether the whole picture was adopted, and what a record would replay.
/// 3. The daemon, with its settings (`choices`): adopts the boot frame or shows cached frames
///    (`showCachedFrames`), notes the start layout once parsed (`startLayoutShown`), and once the
///    first frame is up writes the entries that were missing and the record (`settle`); from
///    the initramfs, once the skeleton is hidden in the real root (`lastChance`).
public final class StartFrames {
    /// Where this start's record goes; nil once written, or when there is none to write.
    private var location: BootRecord.Location?
    private var bootDisplay: BootDisplay?
    private var bootFramebuffer: BootFramebuffer?
    /// The settings' choices; the daemon sets them before it opens the display.
    public var choices: BootChoices?
    /// Makes the pictures and texts of frames written to the cache.
    public var sprites: SpriteSource?

    /// The boot display's frame became the display's: when it was shown (CLOCK_MONOTONIC
    /// seconds) and whether its outputs were chosen at boot (a plan) rather than replayed.
    private var adoptedFrame: (shownAt: Double, chosenAtBoot: Bool)?
    /// The DRM display last opened, as a record would replay it, with its outputs' sizes.
    private var opened: (confirmed: BootRecord.Confirmed, sizes: [Size])?
    /// The framebuffer this start drew on (upright), kept after a native driver took over: the
    /// next boot shows the record's frame there before that driver loads.
    private var openedFramebuffer: (path: String, id: String, size: Size)?

    private var source: StartSource?
    private var look: (layout: Layout, overrides: PresentationOverrides)?
    private var missing: [BootRecord.Frame] = []
    private var missingTried = false
    private var pendingRecord: BootRecord?
    /// Started in the initramfs: its files are thrown away when it switches to the real root,
    /// so the missed entries and the record are not written there (a full frame rendered and
    /// written, and the record, at the boot's busiest moment, for nothing) but at
    /// `lastChance`, by then under the real root, where the next initramfs takes them from; and
    /// what it writes then, that initramfs lacked.
    public var startedInInitramfs = false {
        didSet { writesWaitForRealRoot = startedInInitramfs }
    }
    private var writesWaitForRealRoot = false
    /// What this start wrote for the next one (an entry, the record).
    private var wroteForNextStart = false

    public init(location: BootRecord.Location? = nil, bootDisplay: BootDisplay? = nil, bootFramebuffer: BootFramebuffer? = nil) {
        self.location = location
        self.bootDisplay = bootDisplay
        self.bootFramebuffer = bootFramebuffer
    }

    /// This start's record, shown when it can be (argv without the program name).
    public static func atBoot(arguments: UnsafeBufferPointer<UnsafeMutablePointer<CChar>?>) -> StartFrames {
        guard let location = BootRecord.location(arguments: arguments) else { return StartFrames() }
        var display: BootDisplay?
        var framebuffer: BootFramebuffer?
        _ = SystemCalls.withFileBytes(location.path, limit: BootRecord.maximumFileSize) { bytes in
            guard let view = BootRecordView(bytes) else { return }
            display = view.show()
            if display == nil { framebuffer = view.showOnFramebuffer() }
        }
        return StartFrames(location: location, bootDisplay: display, bootFramebuffer: framebuffer)
    }

    // MARK: The display

    /// The display shown at boot, for the first open to adopt (once).
    public func takeBootDisplay() -> BootDisplay? {
        defer { bootDisplay = nil }
        return bootDisplay
    }

    /// The framebuffer shown at boot, for the first open to adopt (once).
    public func takeBootFramebuffer() -> BootFramebuffer? {
        defer { bootFramebuffer = nil }
        return bootFramebuffer
    }

    /// A start that ends before it opened the display puts the console back.
    public func releaseBootDisplay() {
        bootDisplay?.release()
        bootDisplay = nil
        bootFramebuffer?.release()
        bootFramebuffer = nil
    }

    /// The provider opened `display` (nil: none, or not DRM), adopting from `boot`.
    public func opened(_ display: DRMDisplay?, adopting boot: BootDisplay?, log: any BootLog) {
        if let boot {
            // The whole picture is the boot frame only when every output took it over.
            if let display, display.path == boot.path, boot.allAdopted, display.drmOutputs.allSatisfy(\.adoptedBootFrame) {
                adoptedFrame = (boot.shownAt, boot.fromPlan)
            } else {
                log.notice("boot record: the display is not driven as \(boot.fromPlan ? "chosen at boot" : "recorded"); what it showed is put back where it is not taken over")
            }
        }
        // A turned output's boot frame would have to be turned too: no record for it.
        opened = display.flatMap { drm in
            guard drm.drmOutputs.allSatisfy({ $0.rotation == .upright }) else { return nil }
            let outputs = drm.drmOutputs.map { output in
                let facts = output.bootRecord
                return BootRecord.Output(connectorID: facts.connectorID, crtcID: facts.crtcID, modeIsPreferred: facts.modeIsPreferred,
                                         modeBytes: facts.modeBytes, framePath: "")
            }
            return (confirmed: BootRecord.Confirmed(devicePath: drm.path, outputs: outputs), sizes: drm.drmOutputs.map(\.size))
        }
        // A native driver that took over from the framebuffer belongs in the record noted then.
        if opened != nil { pendingRecord = nil }
    }

    /// The provider opened the framebuffer `display`, adopting what `boot` showed or not. Only
    /// an upright one is recorded: a turned picture's frame would have to be turned too.
    public func openedFramebuffer(_ display: FramebufferDisplay, adopting boot: BootFramebuffer?, log: any BootLog) {
        if let boot {
            if display.adoptedBootFrame {
                adoptedFrame = (boot.shownAt, false)
            } else {
                log.notice("boot record: \(display.path) is not driven as recorded; the console is given back")
            }
        }
        if display.rotation == .upright {
            openedFramebuffer = (display.path, display.info.id, display.size)
        }
    }

    // MARK: The first frame

    private var cache: FrameCache? { FrameCache(directory: choices?.frameCacheDirectory) }

    /// The boot frame is the display's picture: keeps the source for a display that comes
    /// later (a native driver replacing simpledrm, a reopen after hide). A record replayed as
    /// it was is not written again; outputs chosen at boot are recorded.
    public func adoptBootFrame(source: () -> StartSource?) -> (shownAt: Double, chosenAtBoot: Bool)? {
        guard let adoptedFrame else { return nil }
        if !adoptedFrame.chosenAtBoot { location = nil }
        if cache != nil { self.source = source() }
        return adoptedFrame
    }

    /// Puts each output's cached frame of the start layout on screen; the outputs without one
    /// are remembered, to be written once the first frame is drawn. True when every output
    /// shows its cached frame.
    public func showCachedFrames(on outputs: [any DisplayOutput], source: () -> StartSource?, log: any BootLog) -> Bool {
        guard let cache, let source = source() else { return false }
        self.source = source
        var shown = 0
        for output in outputs {
            let path = cache.path(layoutName: source.name, layoutText: source.text, size: output.size)
            guard let entry = cache.entry(path, size: output.size) else {
                planWrite(BootRecord.Frame(size: output.size, path: path))
                continue
            }
            do {
                if try output.presentWhole({ entry.read(into: $0) }) {
                    shown += 1
                } else if output.canPresent {
                    // The entry could not be read whole: it is written anew.
                    planWrite(BootRecord.Frame(size: output.size, path: path))
                }
            } catch {
                log.error("present on \(output.name): \(error)")
            }
        }
        return shown > 0 && shown == outputs.count
    }

    /// The start layout is parsed and shown: its look is what missed entries are rendered
    /// from. A fallback (a broken file) is not cached, since entries are keyed on the file.
    public func startLayoutShown(_ layout: Layout, overrides: PresentationOverrides, fromFile: Bool) {
        if fromFile && source != nil {
            look = (layout, overrides)
        } else {
            source = nil
            missing = []
        }
    }

    /// A display that appeared after the start (a late driver, the memory fallback) had no
    /// cache to look at: the start layout's frame is written for its outputs that lack one.
    public func displayAttached(outputs: [any DisplayOutput]) {
        guard look != nil, let source, let cache else { return }
        for output in outputs {
            let path = cache.path(layoutName: source.name, layoutText: source.text, size: output.size)
            if cache.entry(path, size: output.size) == nil {
                missingTried = false
                planWrite(BootRecord.Frame(size: output.size, path: path))
            }
        }
    }

    private func planWrite(_ frame: BootRecord.Frame) {
        if !missing.contains(frame) { missing.append(frame) }
    }

    /// Once the first frame is up: the missed entries, then the record. While
    /// `writesWaitForRealRoot`, only what the record will say is noted.
    public func settle(log: any BootLog) {
        if writesWaitForRealRoot {
            if location != nil { settleRecord(log: log, writing: false) }
            return
        }
        if !missing.isEmpty && !missingTried {
            missingTried = true
            writeMissing(lastChance: false, log: log)
        }
        if location != nil { settleRecord(log: log) }
    }

    /// The display is the app's now: the entries that could not be written at start, or that
    /// waited for the real root, are written (the root is usually writable by then), then the
    /// record.
    public func lastChance(log: any BootLog) {
        writesWaitForRealRoot = false
        if !missing.isEmpty { writeMissing(lastChance: true, log: log) }
        if location != nil { settleRecord(log: log) }
        if startedInInitramfs && wroteForNextStart { markInitramfsOutdated(log: log) }
    }

    /// The initramfs this start came from lacks what it wrote: the mark in the cache directory
    /// asks `skeletond-initramfs.path` to make the initramfs again, so that the next boot finds
    /// the entries and the record before the root is mounted (the hooks carry the directory's
    /// files, not this hidden one).
    private func markInitramfsOutdated(log: any BootLog) {
        wroteForNextStart = false
        guard let directory = choices?.frameCacheDirectory else { return }
        do {
            let path = try FrameCache.markInitramfsOutdated(in: directory, why: "the frame cache or boot record changed since the initramfs was made")
            log.info("frame cache: \(path) asks for the initramfs to be made again")
        } catch {
            log.warning("frame cache: cannot write \(directory)/\(FrameCache.initramfsOutdatedMark): \(error); the next boot's initramfs lacks what was written")
        }
    }

    /// Renders the start layout's first frame for each size that missed, with a renderer of
    /// its own, and writes it. A directory that is not writable yet (a read-only root early in
    /// boot) gets a second chance when the skeleton is hidden.
    private func writeMissing(lastChance: Bool, log: any BootLog) {
        guard let look, let cache else {
            missing = []
            return
        }
        var failed: [BootRecord.Frame] = []
        for frame in missing {
            do {
                // A directory that cannot be made shows up as the failure to write into it.
                try? SystemCalls.makeDirectories(FrameCache.directory(of: frame.path), mode: 0o755)
                try cache.storeFirstFrame(of: look.layout, overrides: look.overrides, size: frame.size, sprites: sprites, at: frame.path)
                log.info("frame cache: wrote \(frame.path) for \(frame.size)")
                wroteForNextStart = true
            } catch {
                failed.append(frame)
                if lastChance {
                    log.warning("frame cache: cannot write \(frame.path): \(error)")
                } else {
                    log.info("frame cache: cannot write \(frame.path) yet (\(error.text)); trying again when the skeleton is hidden")
                }
            }
        }
        missing = lastChance ? [] : failed
    }

    /// Notes what the record says as soon as the first frame is up (by hide, the display may
    /// be closed), and, `writing`, writes it once the entries it names exist.
    private func settleRecord(log: any BootLog, writing: Bool = true) {
        guard let location else { return }
        if choices?.outputsHaveOwnLayouts == true {
            guard writing else { return }
            self.location = nil
            if (try? SystemCalls.unlink(location.path)) != nil {
                log.info("boot record: removed \(location.path): some outputs show a layout of their own")
            }
            return
        }
        if pendingRecord == nil {
            guard let record = record(for: location) else {
                self.location = nil
                return
            }
            pendingRecord = record
        }
        guard writing, missing.isEmpty, let record = pendingRecord else { return }
        self.location = nil
        pendingRecord = nil
        guard record.frames.allSatisfy({ FrameCache.openEntry($0.path) != nil }) else {
            log.debug("boot record: not written, a frame cache entry is missing")
            return
        }
        do {
            try record.write(to: location)
            log.info("boot record: wrote \(location.path)")
            wroteForNextStart = true
        } catch {
            log.warning("boot record: cannot write \(location.path): \(error)")
        }
    }

    /// nil when this start cannot be replayed from a record: another cache directory than the
    /// one looked in before the settings were read, no start layout from a file (or the
    /// built-in one), or neither a DRM display nor an upright framebuffer.
    private func record(for location: BootRecord.Location) -> BootRecord? {
        guard let choices, choices.frameCacheDirectory == location.directory, let cache, look != nil, let source else { return nil }
        let drm = opened.flatMap { $0.confirmed.outputs.isEmpty ? nil : $0 }
        guard drm != nil || openedFramebuffer != nil else { return nil }
        var frames: [BootRecord.Frame] = []
        func frame(_ size: Size) -> String {
            let path = cache.path(layoutName: source.name, layoutText: source.text, size: size)
            let frame = BootRecord.Frame(size: size, path: path)
            if !frames.contains(frame) { frames.append(frame) }
            return path
        }
        var confirmed = drm?.confirmed
        for (i, size) in (drm?.sizes ?? []).enumerated() { confirmed?.outputs[i].framePath = frame(size) }
        let framebuffer = openedFramebuffer.map { BootRecord.Framebuffer(path: $0.path, id: $0.id, size: $0.size, framePath: frame($0.size)) }
        return BootRecord(hiddenMarkPath: choices.hiddenMarkPath, layoutPath: source.path, layoutHash: BootRecord.layoutHash(source.text),
                          devicePath: choices.device, connectors: choices.connectors, modes: choices.modes, frames: frames,
                          confirmed: confirmed, framebuffer: framebuffer)
    }
}
