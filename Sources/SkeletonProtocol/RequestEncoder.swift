import SkeletonLayout

/// Writes a request as the line `RequestDecoder` reads back as the same request. Fields at
/// their defaults (no delay, `false` flags, nil) are left out.
public enum RequestEncoder {
    /// The request as one line of JSON with its newline; numbers are written exactly.
    public static func line(_ request: Request) -> [UInt8] {
        Array((json(request).exactJSONText + "\n").utf8)
    }

    static func json(_ request: Request) -> JSONValue {
        var members: [String: JSONValue] = ["command": .string(request.command.name)]
        if let id = request.id { members["id"] = id }
        switch request.command {
        case .show(let show):
            if let layout = show.layout { members["layout"] = .string(layout) }
            if show.delay != 0 { members["delay"] = .number(show.delay) }
            if let transition = show.transition { members["transition"] = json(transition) }
            add(show.overrides, to: &members)
            if show.reset { members["reset"] = true }
            if show.wait { members["wait"] = true }
            if let output = show.output { members["output"] = .string(output) }
        case .update(let update):
            if let layout = update.layout { members["layout"] = .string(layout) }
            if let transition = update.transition { members["transition"] = json(transition) }
            add(update.overrides, to: &members)
            if update.reset { members["reset"] = true }
            if let output = update.output { members["output"] = .string(output) }
            if !update.content.isEmpty { members["content"] = update.content.json }
            if let message = update.message { members["message"] = .string(message) }
            if let progress = update.progress { members["progress"] = progress.json }
            if update.keep { members["keep"] = true }
        case .hide(let hide):
            if let transition = hide.transition { members["transition"] = json(transition) }
            if hide.retain { members["retain"] = true }
            if hide.wait { members["wait"] = true }
            if hide.afterConsole { members["afterConsole"] = true }
        case .newRoot(let path):
            members["path"] = .string(path)
        case .shutdown(let shutdown):
            members["mode"] = .string(shutdown.mode.rawValue)
            if shutdown.wait { members["wait"] = true }
        case .status, .tree, .ping, .reload, .quit, .deactivate, .reactivate:
            break
        }
        return .object(members)
    }

    static func json(_ transition: TransitionSpec) -> JSONValue {
        switch transition {
        case .none: return ["kind": "none"]
        case .crossDissolve(let duration): return ["kind": "crossDissolve", "duration": .number(duration)]
        }
    }

    static func json(_ gradient: GradientSpec) -> JSONValue {
        switch gradient {
        case .base(let base): return .string(base.hex)
        case .baseAndSecondary(let base, let secondary): return ["base": .string(base.hex), "secondary": .string(secondary.hex)]
        case .colors(let colors): return .array(colors.map { .string($0.hex) })
        }
    }

    /// The overrides as request fields, in the shapes of a layout's `presentation` and `appearance`.
    static func add(_ o: PresentationOverrides, to members: inout [String: JSONValue]) {
        if let style = o.style { members["style"] = .string(style.rawValue) }
        if let animated = o.animated { members["animated"] = .bool(animated) }
        if let reducedMotion = o.reducedMotion { members["reducedMotion"] = .bool(reducedMotion) }
        if let tint = o.tint { members["tint"] = .string(tint.hex) }
        if let gradient = o.gradient { members["gradient"] = json(gradient) }
        if let scheme = o.scheme { members["scheme"] = .string(scheme.rawValue) }
        var animation: [String: JSONValue] = [:]
        if let direction = o.direction { animation["direction"] = .string(direction.rawValue) }
        if let duration = o.duration { animation["duration"] = .number(duration) }
        if let timing = o.timing { animation["timing"] = .string(timing.rawValue) }
        if let autoreverse = o.autoreverse { animation["autoreverse"] = .bool(autoreverse) }
        if let pause = o.pause { animation["pause"] = .number(pause) }
        if let space = o.space { animation["space"] = .string(space.rawValue) }
        if let stagger = o.stagger { animation["stagger"] = .number(stagger) }
        if !animation.isEmpty { members["animation"] = .object(animation) }
    }
}
