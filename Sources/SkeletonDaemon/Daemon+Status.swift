#if canImport(Glibc)
import Glibc
#endif
import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// What `status` and `tree` report.
extension Daemon {
    func statusFields(now: Double) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "state": .string(session.state.rawValue),
            "retained": .bool(session.retained),
            "framesDrawn": .number(Double(framesDrawn)),
            "framesLate": .number(Double(framesLate)),
            "frameRate": .number((frameRate(now: now) * 10).rounded() / 10),
            "uptime": .number(((now - startTime) * 1000).rounded() / 1000),
            "clients": .number(Double(clients.count)),
            "backend": .string(display?.backendName ?? "none"),
        ]
        if let look = session.lookInForce {
            fields["layout"] = .string(look.layoutName)
            fields["presentation"] = look.presentation.json(direction: look.layout.direction(for: look.presentation))
            fields["appearance"] = look.appearance.json
        }
        if let problem = display?.problem { fields["problem"] = .string(problem) }
        fields["outputs"] = .array(compositors.map { c in
            var o = c.output.statusFields
            o["name"] = .string(c.output.name)
            o["size"] = .string(c.output.size.description)
            o["framesPresented"] = .number(Double(c.output.framesPresented))
            return .object(o)
        })
        return fields
    }

    func frameRate(now: Double) -> Double {
        let recent = frameTimes.filter { $0 > now - 1 }
        guard recent.count >= 2, let first = recent.first, let last = recent.last, last > first else { return 0 }
        return Double(recent.count - 1) / (last - first)
    }

    func treeJSON(_ look: SkeletonLook) -> JSONValue {
        let size = compositors.first?.output.size ?? look.layout.canvas.size
        var resolver = LayoutResolver(layout: look.layout, outputSize: size, appearance: look.appearance,
                                      stagger: look.presentation.animation.stagger)
        let resolved = resolver.resolve()
        return ["layout": .string(look.layoutName), "output": [.number(Double(size.width)), .number(Double(size.height))],
                "root": resolved.root.json]
    }
}
