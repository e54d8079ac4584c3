/// The nodes of a layout that take content changes: labels and progress bars, by id and by role.
public struct ContentTargets: Sendable {
    public enum Kind: String, Sendable { case label, progress }

    public private(set) var kinds: [String: Kind] = [:]
    public private(set) var roles: [NodeRole: [String]] = [:]

    public init(_ layout: Layout) {
        visit(layout.root)
        // A layout's only bar takes `progress` without being given the role.
        let bars = kinds.filter { $0.value == .progress }.map(\.key)
        if roles[.progress] == nil, bars.count == 1 { roles[.progress] = bars }
    }

    private mutating func visit(_ node: Node) {
        let kind: Kind? = node.kind == .label ? .label : node.kind == .progress ? .progress : nil
        if let kind, let id = node.id {
            kinds[id] = kind
            if let role = node.role { roles[role, default: []].append(id) }
        }
        for child in node.children { visit(child) }
        node.list.map { list in
            visit(list.row)
            for section in list.sections { [section.header, section.footer].compactMap { $0 }.forEach { visit($0) } }
        }
        if let item = node.grid?.item { visit(item) }
    }

    /// Why `content` cannot apply to this layout (an unknown id, or text for a bar), or nil.
    public func problem(with content: LayoutContent) -> String? {
        for id in content.texts.keys.sorted() {
            switch kinds[id] {
            case .label: continue
            case .progress: return "node \"\(id)\" is a progress bar: it takes a value, not a text"
            case nil: return unknown(id, expecting: .label)
            }
        }
        for id in content.values.keys.sorted() {
            switch kinds[id] {
            case .progress: continue
            case .label: return "node \"\(id)\" is a label: it takes a text, not a value"
            case nil: return unknown(id, expecting: .progress)
            }
        }
        return nil
    }

    private func unknown(_ id: String, expecting kind: Kind) -> String {
        let candidates = kinds.filter { $0.value == kind }.keys.sorted()
        let known = candidates.isEmpty ? "the layout has no \(kind.rawValue) node with an id"
            : "its \(kind.rawValue) nodes: " + candidates.map { "\"\($0)\"" }.joined(separator: ", ")
        return "no \(kind.rawValue) node \"\(id)\" in the layout (\(known))"
    }
}

extension ContentTargets {
    /// The part of `content` this layout has nodes for, of the right kinds.
    public func accepted(_ content: LayoutContent) -> LayoutContent {
        LayoutContent(texts: content.texts.filter { kinds[$0.key] == .label },
                      values: content.values.filter { kinds[$0.key] == .progress })
    }
}

extension ContentTargets {
    /// `message` for every label of the message role, `progress` for every bar of the progress role.
    public func roleContent(message: String?, progress: ProgressValue?) -> LayoutContent {
        var content = LayoutContent()
        if let message { for id in roles[.message] ?? [] { content.texts[id] = message } }
        if let progress { for id in roles[.progress] ?? [] { content.values[id] = progress } }
        return content
    }
}
