import SkeletonSettings
import SkeletonLayout
import SkeletonRender

/// Layouts shown on particular outputs instead of the main one, by connector name: the app's
/// skeleton on the main screen and a logo on the customer display. They come from the
/// settings (`display.layouts`) and from `show`/`update` requests that name an output. The
/// session's look (its overrides: style, tint, speed) and its show, hide and timing apply to
/// every output; only the layout differs. A layout changed on one output dissolves there alone.
struct OutputLayouts: Equatable {
    struct Assigned: Equatable {
        var name: String
        var layout: Layout
    }

    private(set) var assigned: [String: Assigned] = [:]
    /// Outputs whose layout a request set: a settings reload leaves them.
    private var setByRequest: Set<String> = []
    private var dissolves: [String: Dissolve] = [:]

    private struct Dissolve: Equatable {
        var previous: Assigned?
        var start: Double
        var duration: Double
    }

    private static let ease = TimingCurve(.easeInOut)

    /// Shows `layout` on `output`, dissolving from what it showed over `transition` when
    /// something is shown (`showing`).
    mutating func assign(_ layout: Assigned, to output: String, byRequest: Bool, transition: TransitionSpec, showing: Bool, now: Double) {
        if byRequest { setByRequest.insert(output) }
        let old = assigned[output]
        guard old != layout else { return }
        assigned[output] = layout
        if showing && transition.duration > 0 {
            dissolves[output] = Dissolve(previous: old, start: now, duration: transition.duration)
        }
    }

    /// The settings' layouts after a reload: those a request set stay, the others follow the
    /// settings (`load` gives the layout of a reference, nil when it cannot be loaded).
    mutating func applySettings(_ layouts: [String: Assigned], now: Double) {
        for output in assigned.keys where layouts[output] == nil && !setByRequest.contains(output) {
            assigned[output] = nil
            dissolves[output] = nil
        }
        for (output, layout) in layouts where !setByRequest.contains(output) {
            assign(layout, to: output, byRequest: false, transition: .none, showing: false, now: now)
        }
    }

    func layoutName(for output: String) -> String? { assigned[output]?.name }

    /// `look` as `output` shows it: its own layout with the look's overrides, or the look itself.
    func look(_ look: SkeletonLook, for output: String) -> SkeletonLook {
        guard !assigned.isEmpty, let own = assigned[output] else { return look }
        return SkeletonLook(layoutName: own.name, layout: own.layout, overrides: look.overrides)
    }

    /// `frame` as `output` shows it: its own layout with the session's overrides, dissolving
    /// from the one it showed before when that changed lately.
    func frame(_ frame: SessionFrame, for output: String, now: Double) -> SessionFrame {
        guard !assigned.isEmpty, let own = assigned[output] else { return frame }
        var mapped = frame
        mapped.look = look(frame.look, for: output)
        if let previous = frame.previous {
            // A dissolve of the session's look: here only a change of style or overrides shows.
            let before = SkeletonLook(layoutName: own.name, layout: own.layout, overrides: previous.overrides)
            mapped.previous = mapped.look.needsCrossfade(from: before) ? before : nil
            if mapped.previous == nil { mapped.crossfade = 1 }
        }
        if let dissolve = dissolves[output] {
            let progress = min(1, max(0, (now - dissolve.start) / dissolve.duration))
            if progress < 1 {
                let old = dissolve.previous.map { SkeletonLook(layoutName: $0.name, layout: $0.layout, overrides: frame.look.overrides) }
                mapped.previous = old ?? frame.look
                mapped.crossfade = Self.ease(progress)
            }
        }
        return mapped
    }

    /// A dissolve on some output is running.
    var isMoving: Bool { !dissolves.isEmpty }

    /// Ends the dissolves that are over: true when one ended (its last frame is due).
    mutating func advance(to now: Double) -> Bool {
        guard !dissolves.isEmpty else { return false }
        let before = dissolves.count
        dissolves = dissolves.filter { now < $0.value.start + $0.value.duration }
        return dissolves.count != before
    }
}
