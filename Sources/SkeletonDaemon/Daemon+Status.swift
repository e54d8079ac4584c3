import SkeletonSettings
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
            "framesDrawn": .number(Double(pacer.framesDrawn)),
            "framesLate": .number(Double(pacer.framesLate)),
            "frameRate": .number((pacer.frameRate(now: now) * 10).rounded() / 10),
            "uptime": .number(((now - startTime) * 1000).rounded() / 1000),
            "clients": .number(Double(server?.clients.count ?? 0)),
            "backend": .string(host.display?.backendName ?? "none"),
        ]
        if initramfs { fields["initramfs"] = true }
        if let look = session.lookInForce {
            fields["layout"] = .string(look.layoutName)
            fields["presentation"] = look.presentation.json(direction: look.layout.direction(for: look.presentation))
            fields["appearance"] = look.appearance.json
            var resolver = LayoutResolver(layout: look.layout, content: look.content)
            fields["content"] = Self.contentInForce(resolver.resolve().root)
        }
        if let problem = host.display?.problem { fields["problem"] = .string(problem) }
        if let plymouth {
            var notes = plymouthNotes.json
            if case .object(var o) = notes {
                o["socket"] = .string("@" + plymouth.name)
                notes = .object(o)
            }
            fields["plymouth"] = notes
        }
        fields["outputs"] = .array(host.compositors.map { c in
            var o = c.output.statusFields
            o["name"] = .string(c.output.name)
            o["size"] = .string(c.output.size.description)
            o["framesPresented"] = .number(Double(c.output.framesPresented))
            o["backend"] = .string(host.display?.backendName ?? "none")
            if let layout = outputLayouts.layoutName(for: c.output.name) ?? session.lookInForce?.layoutName { o["layout"] = .string(layout) }
            return .object(o)
        })
        return fields
    }

    /// Every label's text and bar's value in force, by id: `{"ID": {"text": ...} | {"value": ...}}`.
    static func contentInForce(_ root: ResolvedNode) -> JSONValue {
        var content = LayoutContent()
        func visit(_ node: ResolvedNode) {
            if let id = node.id, let text = node.text { content.texts[id] = text }
            if let id = node.id, let value = node.value { content.values[id] = value }
            node.children.forEach(visit)
        }
        visit(root)
        return content.json
    }

    func treeJSON(_ look: SkeletonLook) -> JSONValue {
        let size = host.firstOutputSize ?? look.layout.canvas.size
        var resolver = LayoutResolver(layout: look.layout, outputSize: size, appearance: look.appearance,
                                      stagger: look.presentation.animation.stagger, content: look.content)
        return resolver.resolve().treeDocument(layoutName: look.layoutName)
    }
}
