import SkeletonDisplay
import SkeletonLayout
import SkeletonProtocol
import SkeletonRender

/// What `status` and `tree` report.
extension Daemon {
    func statusReply(now: Double) -> StatusReply {
        var status = StatusReply()
        status.state = screen.session.state
        status.retained = screen.session.retained
        status.deactivated = host.deactivated
        status.goingDown = screen.goingDown?.mode
        status.initramfs = config.initramfs
        status.framesDrawn = pacer.framesDrawn
        status.framesLate = pacer.framesLate
        status.framesRepeated = pacer.framesRepeated
        status.frameRate = (pacer.frameRate(now: now) * 10).rounded() / 10
        status.uptime = ((now - config.startTime) * 1000).rounded() / 1000
        status.clients = inlets.server?.clients.count ?? 0
        status.backend = host.display?.backendName ?? "none"
        if let look = screen.session.lookInForce {
            status.layout = look.layoutName
            status.presentation = look.presentation.json(direction: look.layout.direction(for: look.presentation))
            status.appearance = look.appearance.json
            var resolver = LayoutResolver(layout: look.layout, content: look.content)
            status.content = Self.contentInForce(resolver.resolve().root)
        }
        status.problem = host.problem
        status.plymouth = inlets.plymouthAdapter?.notes
        status.outputs = host.compositors.map { c in
            var o = c.output.status
            o.name = c.output.name
            o.size = c.output.size.description
            o.framesPresented = c.output.framesPresented
            o.backend = host.display?.backendName ?? "none"
            o.layout = screen.content.outputLayouts.layoutName(for: c.output.name) ?? screen.session.lookInForce?.layoutName
            return o
        }
        return status
    }

    /// Every label's text and bar's value in force, by id.
    static func contentInForce(_ root: ResolvedNode) -> LayoutContent {
        var content = LayoutContent()
        func visit(_ node: ResolvedNode) {
            if let id = node.id, let text = node.text { content.texts[id] = text }
            if let id = node.id, let value = node.value { content.values[id] = value }
            node.children.forEach(visit)
        }
        visit(root)
        return content
    }

    func treeJSON(_ look: SkeletonLook) -> JSONValue { Self.tree(of: look, at: host.firstOutputSize ?? look.layout.canvas.size) }

    /// `tree`'s document: `look` resolved at an output's `size`.
    static func tree(of look: SkeletonLook, at size: Size) -> JSONValue {
        var resolver = LayoutResolver(layout: look.layout, outputSize: size, appearance: look.appearance,
                                      stagger: look.presentation.animation.stagger, content: look.content)
        return resolver.resolve().treeDocument(layoutName: look.layoutName)
    }
}
