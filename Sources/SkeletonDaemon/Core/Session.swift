import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// The show / update / hide state machine (behaviour reference, section 7): a value that
/// holds no clock; every transition takes the time, so tests drive it frame by frame.
public struct Session: Sendable {
    public private(set) var state = SessionState.idle
    /// The look on screen, or last on screen.
    public private(set) var look: SkeletonLook?
    /// True after `hide --retain`: the last frame stays while another program takes over.
    public private(set) var retained = false

    private var pending: (look: SkeletonLook, transition: TransitionSpec, due: Double)?
    private var fade: Fade?
    private var crossfade: (previous: SkeletonLook, start: Double, duration: Double)?
    private var animationOrigin = 0.0

    private static let ease = TimingCurve(.easeInOut)

    struct Fade: Sendable {
        var from: Double
        var to: Double
        var start: Double
        var duration: Double

        func value(at t: Double) -> Double {
            guard duration > 0 else { return to }
            let p = min(1, max(0, (t - start) / duration))
            return from + (to - from) * Session.ease(p)
        }

        func isDone(at t: Double) -> Bool { t >= start + duration }
    }

    public enum ShowOutcome: String, Sendable { case shown, pending, updated }
    public enum HideOutcome: String, Sendable { case hiding, hidden, retained, cancelled, alreadyHidden }
    public enum Event: Sendable, Equatable {
        case appeared
        case disappeared(retained: Bool)
        /// A show's fade-in or a dissolve between looks has ended: its last frame is due.
        case settled
    }

    public init() {}

    /// Shows `look` after `delay` seconds with `transition`. A show during a delay replaces the
    /// pending one; a show while shown is an update that dissolves with `transition`.
    public mutating func show(_ look: SkeletonLook, delay: Double, transition: TransitionSpec, now: Double) -> ShowOutcome {
        switch state {
        case .showing:
            update(look, transition: transition, now: now)
            return .updated
        case .hiding:
            update(look, transition: transition, now: now)
            fade = Fade(from: opacity(at: now), to: 1, start: now, duration: transition.duration)
            state = .showing
            return .shown
        case .idle, .pending:
            if delay > 0 {
                pending = (look, transition, now + delay)
                state = .pending
                return .pending
            }
            pending = nil
            appear(look, transition: transition, at: now)
            return .shown
        }
    }

    /// Changes the presentation or layout live, dissolving with `transition` when the change
    /// redraws everything (`SkeletonLook.needsCrossfade`); false while nothing is shown.
    @discardableResult
    public mutating func update(_ newLook: SkeletonLook, transition: TransitionSpec, now: Double) -> Bool {
        switch state {
        case .idle:
            return false
        case .pending:
            pending?.look = newLook
            return true
        case .showing, .hiding:
            if let old = look, newLook.needsCrossfade(from: old) {
                // Dissolve from what is on screen now, even if a dissolve was already running.
                crossfade = transition.duration > 0 ? (old, now, transition.duration) : nil
            }
            look = newLook
            return true
        }
    }

    public mutating func hide(transition: TransitionSpec, retain: Bool, now: Double) -> HideOutcome {
        switch state {
        case .idle:
            return .alreadyHidden
        case .pending:
            pending = nil
            state = .idle
            return .cancelled
        case .showing, .hiding:
            if retain {
                state = .idle
                retained = true
                fade = nil
                crossfade = nil
                return .retained
            }
            if transition.duration <= 0 {
                disappear()
                return .hidden
            }
            fade = Fade(from: opacity(at: now), to: 0, start: now, duration: transition.duration)
            state = .hiding
            return .hiding
        }
    }

    /// Moves time forward: a due pending show appears, finished fades settle.
    public mutating func advance(to now: Double) -> [Event] {
        var events: [Event] = []
        if state == .pending, let p = pending, now >= p.due {
            pending = nil
            appear(p.look, transition: p.transition, at: p.due)
            events.append(.appeared)
        }
        var settled = false
        if let c = crossfade, now >= c.start + c.duration {
            crossfade = nil
            settled = true
        }
        if let f = fade, f.isDone(at: now) {
            fade = nil
            if state == .hiding {
                disappear()
                events.append(.disappeared(retained: false))
                settled = false
            } else {
                settled = true
            }
        }
        if settled { events.append(.settled) }
        return events
    }

    /// The frame to draw at `now`, or nil when nothing is shown.
    public func frame(at now: Double) -> SessionFrame? {
        guard state == .showing || state == .hiding, let look else { return nil }
        var frame = SessionFrame(look: look, previous: nil, crossfade: 1, opacity: opacity(at: now),
                                 animationTime: now - animationOrigin)
        if let c = crossfade {
            let p = min(1, max(0, (now - c.start) / c.duration))
            if p < 1 {
                frame.previous = c.previous
                frame.crossfade = Session.ease(p)
            }
        }
        return frame
    }

    public func opacity(at now: Double) -> Double {
        switch state {
        case .idle, .pending: return 0
        case .showing, .hiding: return fade?.value(at: now) ?? 1
        }
    }

    /// True when frames change over time at `now` (an animation or a transition).
    public func isMoving(at now: Double) -> Bool {
        guard state == .showing || state == .hiding, let look else { return false }
        return look.presentation.moves || fade != nil || crossfade != nil
    }

    /// True while a show or hide transition is running.
    public var isTransitioning: Bool { fade != nil || state == .pending }

    /// When a pending show is due.
    public var pendingDue: Double? { pending?.due }

    /// The presentation that a show would use, pending or shown.
    public var lookInForce: SkeletonLook? { pending?.look ?? look }

    private mutating func appear(_ newLook: SkeletonLook, transition: TransitionSpec, at time: Double) {
        look = newLook
        state = .showing
        retained = false
        crossfade = nil
        animationOrigin = time
        fade = transition.duration > 0 ? Fade(from: 0, to: 1, start: time, duration: transition.duration) : nil
    }

    private mutating func disappear() {
        state = .idle
        fade = nil
        crossfade = nil
    }
}
