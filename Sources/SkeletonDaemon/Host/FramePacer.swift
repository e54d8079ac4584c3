/// When frames are drawn: at most `maxFPS` a second, on a grid while something moves, never
/// sooner than the cap's slot after the last frame (a late frame puts its successor off by
/// what it was late), with counts for `status`.
struct FramePacer {
    var maxFPS: Int
    /// When the next frame of a moving picture is due; nil while nothing moves.
    private(set) var nextFrame: Double?
    private(set) var lastDraw: Double?
    private(set) var framesDrawn = 0
    private(set) var framesLate = 0
    /// Slots of the grid left out because their frames would show what is on screen.
    private(set) var framesRepeated = 0
    /// While slots are left out: the first of them (the grid's next slot before the skip), how
    /// many, and the interval they were counted in (a change of `maxFPS` may come meanwhile).
    private var skipped: (from: Double, count: Int, interval: Double)?
    private var recentFrames: [Double] = []
    /// The display paces frames itself (a Wayland compositor's frame callbacks): a moving
    /// picture's frame is drawn as soon as the display takes one, `pacedSpacing` of an interval
    /// after the last at the earliest (the cap holds), not on the pacer's own grid, which drifts
    /// against the compositor's and misses every other refresh.
    var followsDisplay = false
    static let pacedSpacing = 0.75

    init(maxFPS: Int) { self.maxFPS = maxFPS }

    var interval: Double { 1 / Double(maxFPS) }

    /// Whether a frame may be drawn at `now`: changes from commands wait for the next frame
    /// slot too (a burst of updates must not draw faster than the cap), a moving picture for
    /// its due time.
    func mayDraw(at now: Double, moving: Bool) -> Bool {
        if followsDisplay, moving, let earliest = pacedEarliest { return now >= earliest }
        let slot = self.slot ?? now
        return now >= max(slot, (moving ? nextFrame : nil) ?? slot)
    }

    /// The earliest time the cap lets a frame follow the last one: an interval, less half a
    /// millisecond of timer slack.
    private var slot: Double? { lastDraw.map { $0 + interval - 0.0005 } }

    /// When the next frame of a moving picture may be drawn (nil while nothing moves): its
    /// time on the grid, or the slot when that is later. The loop sleeps until then; woken at
    /// the grid's time before the slot, it would find nothing to draw and turn again at once,
    /// over and over, for as long as the last frame was late.
    var nextMovingFrame: Double? {
        guard let nextFrame else { return nil }
        guard !followsDisplay, let slot else { return nextFrame }
        return max(nextFrame, slot)
    }

    /// While following the display: the earliest time the next moving frame may be drawn.
    var pacedEarliest: Double? {
        guard followsDisplay, nextFrame != nil, let lastDraw else { return nil }
        return lastDraw + interval * Self.pacedSpacing
    }

    /// Counts a frame drawn at `now`; returns how late it was when it was (seconds).
    @discardableResult
    mutating func drew(at now: Double, moving: Bool) -> Double? {
        lastDraw = now
        skipped = nil
        framesDrawn += 1
        recentFrames.append(now)
        if recentFrames.count > 240 { recentFrames.removeFirst(recentFrames.count - 240) }
        guard moving else {
            nextFrame = nil
            return nil
        }
        var late: Double?
        if followsDisplay {
            nextFrame = now + interval
            return nil
        }
        if let scheduled = nextFrame, now > scheduled + interval {
            framesLate += 1
            late = now - scheduled
        }
        var next = (nextFrame ?? now) + interval
        if next <= now { next = now + interval }
        nextFrame = next
        return late
    }

    /// Nothing moves and nothing is owed: no frame is due.
    mutating func stop() {
        nextFrame = nil
        skipped = nil
    }

    /// The next `count` slots of the grid would show the frame on screen again: the loop
    /// sleeps through them, and the next frame is due at the slot after them.
    mutating func skip(_ count: Int) {
        guard count > 0, !followsDisplay, skipped == nil, let next = nextFrame else { return }
        skipped = (next, count, interval)
        nextFrame = next + Double(count) * interval
        framesRepeated += count
    }

    /// Slots are being left out.
    var isSkipping: Bool { skipped != nil }

    /// Something besides the animation changed (a command, an output, a bar): the slots left
    /// out are due again, the one last passed at once.
    mutating func cancelSkip(now: Double) {
        guard let skipped else { return }
        self.skipped = nil
        let passed = min(skipped.count, max(0, Int(((now - skipped.from) / skipped.interval).rounded(.down))))
        // The slots from the one due on were not left out after all.
        framesRepeated -= skipped.count - passed
        nextFrame = skipped.from + Double(passed) * skipped.interval
    }

    /// Frames per second over the last second.
    func frameRate(now: Double) -> Double {
        let recent = recentFrames.filter { $0 > now - 1 }
        guard recent.count >= 2, let first = recent.first, let last = recent.last, last > first else { return 0 }
        return Double(recent.count - 1) / (last - first)
    }
}
