extension Presentation {
    /// The presentation as the layout format writes it, with the style's defaults filled in.
    public func json(direction: SlideDirection) -> JSONValue {
        var animation: [String: JSONValue] = [
            "direction": .string(direction.rawValue),
            "duration": .number(self.animation.duration(for: style)),
            "timing": .string(self.animation.timing(for: style).rawValue),
            "autoreverse": .bool(self.animation.autoreverse(for: style)),
            "pause": .number(self.animation.pause),
            "space": .string(self.animation.space.rawValue),
        ]
        if self.animation.stagger > 0 { animation["stagger"] = .number(self.animation.stagger) }
        var t: [String: JSONValue] = ["kind": .string(transition.duration > 0 ? "crossDissolve" : "none")]
        if transition.duration > 0 { t["duration"] = .number(transition.duration) }
        return [
            "style": .string(style.rawValue),
            "animated": .bool(animated),
            "reducedMotion": .bool(reducedMotion),
            "animation": .object(animation),
            "transition": .object(t),
        ]
    }
}

extension Appearance {
    /// The colours in force, resolved.
    public var json: JSONValue {
        [
            "tint": .string(resolvedTint.hex),
            "gradient": .array(resolvedGradient.map { .string($0.hex) }),
            "scheme": .string(scheme.rawValue),
        ]
    }
}
