/// Places a layout's nodes on an output: frames in design pixels through the scale rule into
/// output pixels, text bars, list rows and grid items, and SkeletonView's hierarchy rules.
public struct LayoutResolver {
    public let layout: Layout
    public let appearance: Appearance
    public let outputSize: Size
    public let stagger: Double
    private let transform: ViewportTransform
    private var items: [DrawItem] = []
    private var shapeCount = 0
    /// Text nodes too small for their fixed line count, by path (found at the design size).
    public private(set) var issues: [LayoutIssue] = []
    private var issuePaths: Set<String> = []

    /// `appearance` and `stagger` default to the layout's own; a command may override them.
    public init(layout: Layout, outputSize: Size? = nil, appearance: Appearance? = nil, stagger: Double? = nil) {
        self.layout = layout
        self.appearance = appearance ?? layout.appearance
        self.outputSize = outputSize ?? layout.canvas.size
        self.stagger = stagger ?? layout.presentation.animation.stagger
        self.transform = ViewportTransform(canvas: layout.canvas.size, scale: layout.canvas.scale, output: self.outputSize)
    }

    /// Resolves the whole tree.
    public mutating func resolve() -> ResolvedLayout {
        items = []
        shapeCount = 0
        let design = Rect(x: 0, y: 0, width: Double(layout.canvas.width), height: Double(layout.canvas.height))
        let context = Context(colors: Palette(tint: appearance.resolvedTint, gradient: appearance.resolvedGradient),
                              text: TextMetrics(appearance: appearance), clip: design, skeletonAllowed: true, templatePath: nil)
        let root = resolveNode(layout.root, in: design, context: context)
        return ResolvedLayout(outputSize: outputSize, background: layout.canvas.background, transform: transform,
                              root: root, items: items)
    }

    /// Issues that only show once frames are known: text nodes too small for their line count.
    public static func geometryIssues(of layout: Layout) -> [LayoutIssue] {
        var resolver = LayoutResolver(layout: layout)
        _ = resolver.resolve()
        return resolver.issues
    }

    struct Palette {
        var tint: Color
        var gradient: [Color]
    }

    struct TextMetrics {
        var lineHeight: Double
        var spacing: Double
        var lastLineFillPercent: Double
        var linesCornerRadius: Double

        init(appearance: Appearance) {
            lineHeight = appearance.textLineHeight
            spacing = appearance.textLineSpacing
            lastLineFillPercent = appearance.lastLineFillPercent
            linesCornerRadius = appearance.linesCornerRadius
        }

        func overridden(by a: NodeAppearance) -> TextMetrics {
            var m = self
            if let v = a.textLineHeight { m.lineHeight = v }
            if let v = a.textLineSpacing { m.spacing = v }
            if let v = a.lastLineFillPercent { m.lastLineFillPercent = v }
            if let v = a.linesCornerRadius { m.linesCornerRadius = v }
            return m
        }
    }

    struct Context {
        var colors: Palette
        var text: TextMetrics
        /// Design-pixel clip from the ancestors' frames.
        var clip: Rect
        /// False under a non-skeletonable ancestor.
        var skeletonAllowed: Bool
        var templatePath: String?
    }

    private mutating func resolveNode(_ node: Node, in parent: Rect, context: Context, frameOverride: Rect? = nil,
                                      defaultRadius: Double? = nil) -> ResolvedNode {
        let frame = frameOverride ?? node.frame.resolve(in: parent)
        var ctx = context
        if let tint = node.appearance.tint {
            ctx.colors = Palette(tint: tint, gradient: (node.appearance.gradient ?? .base(tint)).stops)
        } else if let g = node.appearance.gradient {
            ctx.colors.gradient = g.stops
        }
        ctx.text = ctx.text.overridden(by: node.appearance)
        let clip = ctx.clip.intersection(frame)
        let skeletonHere = ctx.skeletonAllowed && node.skeletonable
        ctx.clip = clip
        ctx.skeletonAllowed = skeletonHere
        let radius = node.shape == .circle ? min(frame.width, frame.height) / 2
            : (node.cornerRadius ?? defaultRadius ?? appearance.cornerRadius)

        var resolved = ResolvedNode(kind: node.kind, id: node.id, skeletonable: node.skeletonable, isSkeleton: false,
                                    hidden: node.hiddenWhenSkeletonActive, frame: transform.map(frame), bars: [], children: [])
        if node.hiddenWhenSkeletonActive { return resolved }

        let hasSkeletonChildren = skeletonHere && node.children.contains { $0.skeletonable }
        let isLeaf = node.kind == .text || node.kind == .image || (node.kind == .view && !hasSkeletonChildren)
        let drawsSkeleton = skeletonHere && isLeaf
        if !drawsSkeleton, let background = node.background {
            items.append(.content(ContentFill(rect: transform.map(frame), clip: transform.map(clip),
                                              cornerRadius: radius * transform.lengthScale, color: background)))
        }
        switch node.kind {
        case .view:
            resolved.children = node.children.map { resolveNode($0, in: frame, context: ctx) }
        case .list:
            if let list = node.list { resolved.children = resolveList(list, frame: frame, context: ctx) }
        case .grid:
            if let grid = node.grid {
                resolved.children = resolveGrid(grid, frame: frame, context: ctx, blockRadius: radius, node: node)
            }
        case .text, .image:
            break
        }
        // A skeleton leaf's shape covers any non-skeletonable children, as SkeletonView's top sublayer does.
        if drawsSkeleton {
            resolved.isSkeleton = true
            if node.kind == .text {
                let bars = textBars(node, frame: frame, metrics: ctx.text)
                resolved.bars = bars.map(transform.map)
                for bar in bars {
                    addShape(bar, clip: clip, radius: ctx.text.linesCornerRadius, palette: ctx.colors, delay: node.animationDelay)
                }
            } else {
                addShape(frame, clip: clip, radius: radius, palette: ctx.colors, delay: node.animationDelay)
            }
        }
        return resolved
    }

    private mutating func addShape(_ rect: Rect, clip: Rect, radius: Double, palette: Palette, delay: Double) {
        let mapped = transform.map(rect)
        let r = min(radius * transform.lengthScale, min(mapped.width, mapped.height) / 2)
        items.append(.skeleton(SkeletonShape(rect: mapped, clip: transform.map(clip), cornerRadius: max(0, r),
                                             tint: palette.tint, gradient: palette.gradient,
                                             delay: delay + Double(shapeCount) * stagger)))
        shapeCount += 1
    }

    /// The bars of a text node in design pixels (behaviour reference, section 5).
    private mutating func textBars(_ node: Node, frame: Rect, metrics m: TextMetrics) -> [Rect] {
        let spec = node.text ?? TextSpec()
        let pad = spec.padding
        let innerHeight = frame.height - pad.top - pad.bottom
        let count: Int
        switch spec.lines {
        case .count(let n):
            count = n
            if innerHeight < m.lineHeight, !issuePaths.contains(node.path) {
                issuePaths.insert(node.path)
                issues.append(LayoutIssue(path: node.path + ".frame",
                    message: "text node is too small for one line: its height after padding is \(JSONValue.formatNumber(innerHeight)), a line needs \(JSONValue.formatNumber(m.lineHeight)) (lines is \(n))"))
            }
        case .auto:
            let fit = (innerHeight / (m.lineHeight + m.spacing)).rounded(.toNearestOrAwayFromZero)
            count = innerHeight >= m.lineHeight ? max(1, Int(fit)) : 0
        }
        guard count > 0 else { return [] }
        let block = Double(count) * m.lineHeight + Double(count - 1) * m.spacing
        let top = spec.verticalAlignment == .top ? pad.top : pad.top + (innerHeight - block) / 2
        let fullWidth = max(0, frame.width - pad.left - pad.right)
        let lastWidth = fullWidth * m.lastLineFillPercent / 100
        var alignment = spec.lastLineAlignment
        if alignment == .natural { alignment = layout.canvas.direction == .rtl ? .right : .left }
        return (0..<count).map { i in
            let y = frame.y + top + Double(i) * (m.lineHeight + m.spacing)
            if i < count - 1 {
                return Rect(x: frame.x + pad.left, y: y, width: fullWidth, height: m.lineHeight)
            }
            let x: Double
            switch alignment {
            case .center: x = (frame.width + pad.left - pad.right - lastWidth) / 2
            case .right: x = frame.width - lastWidth - pad.right
            case .left, .natural: x = pad.left
            }
            return Rect(x: frame.x + x, y: y, width: lastWidth, height: m.lineHeight)
        }
    }

    private mutating func resolveList(_ list: ListSpec, frame: Rect, context: Context) -> [ResolvedNode] {
        var children: [ResolvedNode] = []
        var y = frame.y
        for section in list.sections {
            if let header = section.header, section.headerHeight > 0, y < frame.maxY {
                let cell = Rect(x: frame.x, y: y, width: frame.width, height: section.headerHeight)
                children.append(resolveNode(header, in: cell, context: context, frameOverride: header.frame.resolve(in: cell)))
                y += section.headerHeight
            }
            let rows: Int
            switch section.rows {
            case .count(let n): rows = n
            case .auto: rows = max(0, Int((max(0, frame.maxY - y) / list.rowHeight).rounded(.up)))
            }
            for _ in 0..<rows where y < frame.maxY {
                let cell = Rect(x: frame.x, y: y, width: frame.width, height: list.rowHeight)
                children.append(resolveNode(list.row, in: cell, context: context, frameOverride: list.row.frame.resolve(in: cell)))
                y += list.rowHeight
            }
            if let footer = section.footer, section.footerHeight > 0, y < frame.maxY {
                let cell = Rect(x: frame.x, y: y, width: frame.width, height: section.footerHeight)
                children.append(resolveNode(footer, in: cell, context: context, frameOverride: footer.frame.resolve(in: cell)))
                y += section.footerHeight
            }
        }
        return children
    }

    private mutating func resolveGrid(_ grid: GridSpec, frame: Rect, context: Context, blockRadius: Double,
                                      node: Node) -> [ResolvedNode] {
        let stepX = grid.itemWidth + grid.spacingX
        let stepY = grid.itemHeight + grid.spacingY
        let columns = max(1, Int(((frame.width + grid.spacingX) / stepX).rounded(.down)))
        let count: Int
        switch grid.items {
        case .count(let n): count = n
        case .auto:
            let rows = max(1, Int(((frame.height + grid.spacingY) / stepY).rounded(.down)))
            count = rows * columns
        }
        let template = grid.item ?? Node(kind: .view, cornerRadius: nil, path: node.path + ".item")
        var children: [ResolvedNode] = []
        for i in 0..<count {
            let cell = Rect(x: frame.x + Double(i % columns) * stepX, y: frame.y + Double(i / columns) * stepY,
                            width: grid.itemWidth, height: grid.itemHeight)
            if cell.y >= frame.maxY { break }
            children.append(resolveNode(template, in: cell, context: context, frameOverride: template.frame.resolve(in: cell),
                                        defaultRadius: grid.item == nil ? blockRadius : nil))
        }
        return children
    }
}
