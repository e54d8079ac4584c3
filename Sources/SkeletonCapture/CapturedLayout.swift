import SkeletonLayout

/// A scanned page as a layout: leaves become `text`, `image` and `view` nodes at the places the
/// page drew them, fixed bars with a solid background and `data-skeleton="false"` elements stay
/// as themselves (not skeletonable, in their colour), repeated siblings of one shape become a
/// `list` or a `grid` with one template, and the page's background and direction become the
/// canvas's. Frames are whole pixels, and `"100%"` where a node spans its parent's width or height.
struct CapturedLayout {
    let page: ScannedPage
    let name: String
    private var ids: Set<String> = []

    init(page: ScannedPage, name: String) {
        self.page = page
        self.name = name
    }

    /// The layout as JSON.
    mutating func json() -> JSONValue {
        var canvas: [String: JSONValue] = ["width": .number(Double(page.width)), "height": .number(Double(page.height)),
                                           "background": .string(page.background)]
        if page.rightToLeft { canvas["direction"] = "rtl" }
        let children = nodes(for: page.elements, origin: (0, 0), parent: (Double(page.width), Double(page.height)), under: page.background)
        return .object(["name": .string(name), "canvas": .object(canvas), "appearance": .object(["tint": .string(tint)]),
                        "root": .object(["kind": "view", "children": .array(children)])])
    }

    /// A skeleton colour that shows on the page's background.
    var tint: String { Self.tint(on: page.background) }

    /// A skeleton colour that shows on `background`: the first of the flat colours, lighter ones
    /// on a light background, darker on a dark one, far enough from it in luminance.
    static func tint(on background: String) -> String {
        let light: [(String, UInt32)] = [("clouds", 0xECF0F1), ("silver", 0xBDC3C7), ("concrete", 0x95A5A6)]
        let dark: [(String, UInt32)] = [("wetAsphalt", 0x34495E), ("asbestos", 0x7F8C8D), ("concrete", 0x95A5A6)]
        guard case .success(let colour) = Color.parse(background) else { return "clouds" }
        let own = Self.luminance(colour.xrgb)
        let candidates = own >= 0.5 ? light : dark
        return candidates.first { abs(Self.luminance($0.1) - own) >= 0.08 }?.0 ?? candidates[candidates.count - 1].0
    }

    /// The shapes on a block of another colour take a tint that shows on it, when the page's does not.
    private func addTint(on background: String, to node: inout [String: JSONValue]) {
        let own = Self.tint(on: background)
        if own != tint { node["tint"] = .string(own) }
    }

    private static func luminance(_ rgb: UInt32) -> Double {
        let r = Double((rgb >> 16) & 0xFF), g = Double((rgb >> 8) & 0xFF), b = Double(rgb & 0xFF)
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255
    }

    /// Nodes for `elements`, their frames relative to `origin`, on a block of colour `under`;
    /// boxes are flattened into their leaves, runs of repeated siblings grouped.
    private mutating func nodes(for elements: [ScannedElement], origin: (Double, Double), parent: (width: Double, height: Double),
                                under: String) -> [JSONValue] {
        var result: [JSONValue] = []
        var index = 0
        while index < elements.count {
            let run = Repetition.run(in: elements, from: index)
            if run.count >= 2, let group = group(run, origin: origin, under: under) {
                result.append(group)
                index += run.count
                continue
            }
            let element = elements[index]
            if element.kind == .box, let background = element.background, background != under {
                // A block in a colour of its own (a card, a panel) stays, its contents inside it.
                let r = element.rect
                var node: [String: JSONValue] = [
                    "kind": "view", "frame": frame(r.x - origin.0, r.y - origin.1, r.width, r.height, parent: parent),
                    "background": .string(background),
                    "children": .array(nodes(for: element.children, origin: (r.x.rounded(), r.y.rounded()), parent: (r.width, r.height), under: background)),
                ]
                addTint(on: background, to: &node)
                if element.radius > 0 { node["cornerRadius"] = .number(element.radius.rounded()) }
                if let id = element.id, ids.insert(id).inserted { node["id"] = .string(id) }
                result.append(.object(node))
            } else if element.kind == .box {
                result += nodes(for: element.children, origin: origin, parent: parent, under: under)
            } else {
                result.append(leaf(element, origin: origin, parent: parent, under: under))
            }
            index += 1
        }
        return result
    }

    /// A list (one column at a steady pitch) or a grid (rows and columns filled in order) for
    /// a run of repeated siblings; nil when they are placed otherwise.
    private mutating func group(_ run: [ScannedElement], origin: (Double, Double), under: String) -> JSONValue? {
        guard let placement = Repetition.placement(of: run.map(\.rect)) else { return nil }
        let first = run[0].rect
        let size = (width: first.width.rounded(), height: first.height.rounded())
        guard let template = templateChildren(run) else { return nil }
        // The items' own block (a tile, a card) in its colour, under the template's shapes.
        var cell: [String: JSONValue] = ["kind": "view"]
        if let background = run[0].background, background != under {
            cell["background"] = .string(background)
            if run[0].radius > 0 { cell["cornerRadius"] = .number(run[0].radius.rounded()) }
            addTint(on: background, to: &cell)
        }
        let x = first.x - origin.0, y = first.y - origin.1
        switch placement {
        case .list(let pitch):
            let rowHeight = pitch.rounded()
            return .object(["kind": "list", "frame": frame(x, y, size.width, rowHeight * Double(run.count), parent: nil),
                            "rowHeight": .number(rowHeight), "rows": .number(Double(run.count)),
                            "row": .object(cell.merging(["frame": frame(0, 0, size.width, size.height, parent: nil),
                                                         "children": .array(template)]) { $1 })])
        case .grid(let columns, let pitchX, let pitchY):
            let rows = (run.count + columns - 1) / columns
            let spacing = (max(0, pitchX.rounded() - size.width), max(0, pitchY.rounded() - size.height))
            let width = Double(columns) * size.width + Double(columns - 1) * spacing.0
            let height = Double(rows) * size.height + Double(rows - 1) * spacing.1
            return .object(["kind": "grid", "frame": frame(x, y, width, height, parent: nil),
                            "itemSize": .array([.number(size.width), .number(size.height)]),
                            "spacing": .array([.number(spacing.0), .number(spacing.1)]), "items": .number(Double(run.count)),
                            "item": .object(cell.merging(["children": .array(template)]) { $1 })])
        }
    }

    /// The template's nodes (see `RunTemplate`); nil when the items are not the same shape.
    private mutating func templateChildren(_ run: [ScannedElement]) -> [JSONValue]? {
        RunTemplate.of(run)?.map { leaf($0, origin: (0, 0), parent: (run[0].rect.width, run[0].rect.height), under: nil) }
    }

    /// A leaf's node; `under`: the colour it sits on, nil in a template (which keeps neither the
    /// colours nor the ids of its leaves: every item would repeat them).
    private mutating func leaf(_ e: ScannedElement, origin: (Double, Double), parent: (width: Double, height: Double), under: String?) -> JSONValue {
        // A text's shapes go where its lines are, not over the whole box (a flex item taller than its text).
        let r = e.kind == .text ? e.textRect : e.rect
        var node: [String: JSONValue] = ["frame": frame(r.x - origin.0, r.y - origin.1, r.width, r.height, parent: parent)]
        switch e.kind {
        case .text:
            node["kind"] = "text"
            textKeys(e, into: &node)
            if let background = e.background, let under, background != under {
                // A text on a block of its own colour (a heading bar): the block stays, the bars on it.
                let box = e.rect
                var bars = node
                bars["frame"] = frame(r.x - box.x, r.y - box.y, r.width, r.height, parent: (box.width, box.height))
                var block: [String: JSONValue] = [
                    "kind": "view", "frame": frame(box.x - origin.0, box.y - origin.1, box.width, box.height, parent: parent),
                    "background": .string(background), "children": .array([.object(bars)]),
                ]
                if e.radius > 0 { block["cornerRadius"] = .number(e.radius.rounded()) }
                if let id = e.id, ids.insert(id).inserted { block["id"] = .string(id) }
                addTint(on: background, to: &block)
                return .object(block)
            }
        case .image, .shape:
            // A picture, or a box the page paints by CSS alone (an avatar, a tile, a chip, a rule, a bullet).
            node["kind"] = e.kind == .image ? "image" : "view"
            if e.radius > 0 && e.radius >= min(r.width, r.height) / 2 - 0.5 { node["shape"] = "circle" } else if e.radius > 0 || e.kind == .shape {
                node["cornerRadius"] = .number(e.radius.rounded())
            }
        case .control:
            node["kind"] = "view"
            node["cornerRadius"] = .number(e.radius.rounded())
        case .bar, .content:
            node["kind"] = "view"
            node["skeletonable"] = false
            if let background = e.background { node["background"] = .string(background) }
            if e.radius > 0 { node["cornerRadius"] = .number(e.radius.rounded()) }
        case .box:
            node["kind"] = "view"
        }
        if e.hidden { node["hiddenWhenSkeletonActive"] = true }
        if under != nil, let id = e.id, ids.insert(id).inserted { node["id"] = .string(id) }
        return .object(node)
    }

    /// A text's bars from its line boxes: as many as it has lines (or `data-skeleton-lines`),
    /// each as tall as a line's box, at the lines' pitch, the last as long as the last line.
    private func textKeys(_ e: ScannedElement, into node: inout [String: JSONValue]) {
        let lines = e.lines.isEmpty ? [e.rect] : e.lines
        let heights = lines.map(\.height).sorted()
        // As tall as a line's box drawn from whole pixels: its edges rounded, not its height.
        let lineHeight = max(1, (lines[0].y + heights[heights.count / 2]).rounded() - lines[0].y.rounded())
        let pitch = lines.count > 1 ? (lines[lines.count - 1].y - lines[0].y) / Double(lines.count - 1) : lineHeight
        node["lines"] = .number(Double(e.linesAttribute ?? lines.count))
        node["textLineHeight"] = .number(lineHeight)
        node["textLineSpacing"] = .number(max(0, (pitch - lineHeight).rounded()))
        let last = lines[lines.count - 1], width = e.textRect.width
        node["lastLineFillPercent"] = .number(width > 0 ? min(100, (last.width / width * 100).rounded()) : 100)
        let right = e.align == "right" || (e.align == "end") != page.rightToLeft && (e.align == "end" || e.align == "start")
        if e.align == "center" { node["lastLineAlignment"] = "center" } else if right { node["lastLineAlignment"] = "right" }
    }

    /// `[x, y, width, height]` in whole pixels, each edge at the nearest; a width or height
    /// `"100%"` where it spans the parent.
    private func frame(_ x: Double, _ y: Double, _ width: Double, _ height: Double, parent: (width: Double, height: Double)?) -> JSONValue {
        let w: JSONValue = parent.map { x.rounded() == 0 && abs(width - $0.width) < 1 } == true ? "100%" : .number((x + width).rounded() - x.rounded())
        let h: JSONValue = parent.map { y.rounded() == 0 && abs(height - $0.height) < 1 } == true ? "100%" : .number((y + height).rounded() - y.rounded())
        return .array([.number(x.rounded()), .number(y.rounded()), w, h])
    }
}

extension ScannedElement {
    /// Where a text's lines are: their union (the element's box when it has none).
    var textRect: Rect {
        guard let first = lines.first else { return rect }
        return lines.dropFirst().reduce(first) { $0.union($1) }
    }

    func moved(by dx: Double, _ dy: Double) -> ScannedElement {
        var copy = self
        copy.rect = Rect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height)
        copy.lines = lines.map { Rect(x: $0.x + dx, y: $0.y + dy, width: $0.width, height: $0.height) }
        copy.children = children.map { $0.moved(by: dx, dy) }
        return copy
    }

    /// This leaf grown to cover `other` too, line by line for a text (same line count: see
    /// `Repetition.alike`).
    func covering(_ other: ScannedElement) -> ScannedElement {
        var copy = self
        copy.rect = rect.union(other.rect)
        copy.lines = zip(lines, other.lines).map { $0.union($1) }
        return copy
    }
}
