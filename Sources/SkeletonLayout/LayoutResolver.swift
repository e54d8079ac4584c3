/// Places a layout's nodes on an output: frames in design pixels through the scale rule into
/// output pixels, text bars, list rows and grid items, and SkeletonView's hierarchy rules.
/// Whatever the layout and the output size, it places no more than `LayoutLimits` allow (a
/// loaded layout has been checked against them; anything else is cut short), and every shape
/// is clipped to the output.
public struct LayoutResolver {
    public let layout: Layout
    public let appearance: Appearance
    public let outputSize: Size
    public let stagger: Double
    /// Texts and values set by commands, over the layout's own.
    public let content: LayoutContent
    private let transform: ViewportTransform
    private var items: [DrawItem] = []
    private var shapeCount = 0
    private var nodeCount = 0
    /// Text nodes too small for their fixed line count, by path (found at the design size).
    public private(set) var issues: [LayoutIssue] = []
    private var issuePaths: Set<String> = []

    /// `appearance` and `stagger` default to the layout's own; a command may override them.
    public init(layout: Layout, outputSize: Size? = nil, appearance: Appearance? = nil, stagger: Double? = nil,
                content: LayoutContent = LayoutContent()) {
        self.layout = layout
        self.content = content
        self.appearance = appearance ?? layout.appearance
        self.outputSize = outputSize ?? layout.canvas.size
        self.stagger = stagger ?? layout.presentation.animation.stagger
        self.transform = ViewportTransform(canvas: layout.canvas.size, scale: layout.canvas.scale, output: self.outputSize)
    }

    /// Resolves the whole tree.
    public mutating func resolve() -> ResolvedLayout {
        items = []
        shapeCount = 0
        nodeCount = 0
        let design = Rect(x: 0, y: 0, width: Double(layout.canvas.width), height: Double(layout.canvas.height))
        let context = Context(colors: Palette(tint: appearance.resolvedTint, gradient: appearance.resolvedGradient),
                              text: TextMetrics(appearance: appearance), clip: design.intersection(visibleDesignArea),
                              skeletonAllowed: true)
        let root = resolveNode(layout.root, in: design, context: context)
        return ResolvedLayout(outputSize: outputSize, background: layout.canvas.background, transform: transform,
                              root: root, items: items)
    }

    /// The output in design pixels. Under `fill` a canvas may map far beyond the output, and a
    /// shape is only ever drawn on the output.
    private var visibleDesignArea: Rect {
        guard transform.scaleX > 0, transform.scaleY > 0 else { return .zero }
        return Rect(x: -transform.offsetX / transform.scaleX, y: -transform.offsetY / transform.scaleY,
                    width: Double(outputSize.width) / transform.scaleX, height: Double(outputSize.height) / transform.scaleY)
    }

    private var isFull: Bool { nodeCount >= LayoutLimits.nodes }

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
    }

    private mutating func resolveNode(_ node: Node, in parent: Rect, context: Context, defaultRadius: Double? = nil) -> ResolvedNode {
        let frame = node.frame.resolve(in: parent)
        nodeCount += 1
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

        // SkeletonView hides a view only while its own skeleton is up: never under a non-skeletonable node.
        let hidden = skeletonHere && node.hiddenWhenSkeletonActive
        var resolved = ResolvedNode(kind: node.kind, id: node.id, skeletonable: node.skeletonable, isSkeleton: false,
                                    hidden: hidden, frame: transform.map(frame), bars: [], children: [])
        if hidden { return resolved }

        let hasSkeletonChildren = skeletonHere && node.children.contains { $0.skeletonable }
        let isLeaf = node.kind.isLeaf || (node.kind == .view && !hasSkeletonChildren)
        let drawsSkeleton = skeletonHere && isLeaf
        if !drawsSkeleton, let background = node.background, items.count < LayoutLimits.shapes {
            items.append(.content(ContentFill(rect: transform.map(frame), clip: transform.map(clip),
                                              cornerRadius: radius * transform.lengthScale, color: background)))
        }
        if let label = node.label {
            resolved.text = node.id.flatMap { content.texts[$0] } ?? label.text
        }
        if let progress = node.progress {
            resolved.value = node.id.flatMap { content.values[$0] } ?? progress.value
        }
        if !drawsSkeleton, node.drawsContent, items.count < LayoutLimits.shapes {
            addContent(node, resolved: resolved, frame: frame, clip: clip, radius: radius, palette: ctx.colors)
        }
        switch node.kind {
        case .view:
            for child in node.children {
                if isFull { break }
                resolved.children.append(resolveNode(child, in: frame, context: ctx))
            }
        case .list:
            if let list = node.list { resolved.children = resolveList(list, frame: frame, context: ctx) }
        case .grid:
            if let grid = node.grid {
                resolved.children = resolveGrid(grid, frame: frame, context: ctx, blockRadius: radius, node: node)
            }
        case .text, .image, .label, .progress:
            break
        }
        // A skeleton leaf's shape covers any non-skeletonable children, as SkeletonView's top sublayer does.
        if drawsSkeleton {
            resolved.isSkeleton = true
            if let spec = node.barSpec {
                let bars = textBars(node, spec: spec, frame: frame, metrics: ctx.text)
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
        guard items.count < LayoutLimits.shapes else { return }
        let mapped = transform.map(rect)
        let r = min(radius * transform.lengthScale, min(mapped.width, mapped.height) / 2)
        items.append(.skeleton(SkeletonShape(rect: mapped, clip: transform.map(clip), cornerRadius: max(0, r),
                                             tint: palette.tint, gradient: palette.gradient,
                                             delay: delay + Double(shapeCount) * stagger)))
        shapeCount += 1
    }

    /// A non-skeleton node's own content: its picture, its text or its bar.
    private mutating func addContent(_ node: Node, resolved: ResolvedNode, frame: Rect, clip: Rect, radius: Double, palette: Palette) {
        let rect = transform.map(frame), outputClip = transform.map(clip)
        let rtl = layout.canvas.direction == .rtl
        if let progress = node.progress, let value = resolved.value {
            let barRadius = min(node.cornerRadius.map { $0 * transform.lengthScale } ?? rect.height / 2, min(rect.width, rect.height) / 2)
            items.append(.progress(ProgressItem(rect: rect, clip: outputClip, cornerRadius: max(0, barRadius),
                                                trackColor: progress.trackColor, fillColor: progress.fillColor,
                                                rightToLeft: (progress.direction ?? layout.canvas.direction) == .rtl, value: value,
                                                valueAnimation: progress.valueAnimation,
                                                indeterminatePeriod: progress.indeterminatePeriod, nodeID: node.id)))
            return
        }
        let sprite: SpriteContent
        if let picture = node.picture {
            sprite = .picture(picture)
        } else if let label = node.label, let text = resolved.text {
            let scale = transform.lengthScale
            sprite = .text(TextRun(text: text, font: label.font, pixelSize: label.fontSize * scale, weight: label.weight,
                                   color: label.color, alignment: label.alignment.resolved(rightToLeft: rtl), rightToLeft: rtl,
                                   maxLines: label.lines, lineHeight: label.lineHeight.map { $0 * scale }))
        } else {
            return
        }
        let r = min(radius * transform.lengthScale, min(rect.width, rect.height) / 2)
        let fallback = SkeletonShape(rect: rect, clip: outputClip, cornerRadius: max(0, r), tint: palette.tint,
                                     gradient: palette.gradient, delay: node.animationDelay)
        items.append(.sprite(SpriteItem(rect: rect, clip: outputClip, content: sprite, fallback: fallback, nodePath: node.path)))
    }

    /// The bars of a text node in design pixels (behaviour reference, section 5). Right to left,
    /// the padding's left and right swap, as SkeletonView's padding insets do.
    private mutating func textBars(_ node: Node, spec: TextSpec, frame: Rect, metrics m: TextMetrics) -> [Rect] {
        var pad = spec.padding
        if layout.canvas.direction == .rtl { (pad.left, pad.right) = (pad.right, pad.left) }
        let innerHeight = frame.height - pad.top - pad.bottom
        if case .count(let n) = spec.lines, innerHeight < m.lineHeight, !issuePaths.contains(node.path) {
            issuePaths.insert(node.path)
            issues.append(LayoutIssue(path: node.path + ".frame",
                message: "text node is too small for one line: its height after padding is \(JSONValue.formatNumber(innerHeight)), a line needs \(JSONValue.formatNumber(m.lineHeight)) (lines is \(n))"))
        }
        let lines = RepeatCounts.textLines(spec, height: frame.height, lineHeight: m.lineHeight, spacing: m.spacing)
        let count = RepeatCounts.clamped(lines, to: min(LayoutLimits.textLinesPerNode, LayoutLimits.shapes - items.count))
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
            if let header = section.header, section.headerHeight > 0, hasRoom(at: y, in: frame, placed: children.count) {
                let cell = Rect(x: frame.x, y: y, width: frame.width, height: section.headerHeight)
                children.append(resolveNode(header, in: cell, context: context))
                y += section.headerHeight
            }
            let rows = RepeatCounts.clamped(RepeatCounts.listRows(section.rows, space: frame.maxY - y, rowHeight: list.rowHeight),
                                            to: LayoutLimits.rowsPerList)
            for _ in 0..<rows {
                guard hasRoom(at: y, in: frame, placed: children.count) else { break }
                let cell = Rect(x: frame.x, y: y, width: frame.width, height: list.rowHeight)
                children.append(resolveNode(list.row, in: cell, context: context))
                y += list.rowHeight
            }
            if let footer = section.footer, section.footerHeight > 0, hasRoom(at: y, in: frame, placed: children.count) {
                let cell = Rect(x: frame.x, y: y, width: frame.width, height: section.footerHeight)
                children.append(resolveNode(footer, in: cell, context: context))
                y += section.footerHeight
            }
        }
        return children
    }

    /// Whether a list can take another row (or header, or footer) at `y`.
    private func hasRoom(at y: Double, in frame: Rect, placed: Int) -> Bool {
        y < frame.maxY && placed < LayoutLimits.rowsPerList && !isFull
    }

    private mutating func resolveGrid(_ grid: GridSpec, frame: Rect, context: Context, blockRadius: Double,
                                      node: Node) -> [ResolvedNode] {
        let stepX = grid.itemWidth + grid.spacingX
        let stepY = grid.itemHeight + grid.spacingY
        let count = RepeatCounts.clamped(RepeatCounts.gridItems(grid, width: frame.width, height: frame.height),
                                         to: LayoutLimits.itemsPerGrid)
        // More columns than items all stand in the first row.
        let columns = max(1, RepeatCounts.clamped(RepeatCounts.gridColumns(grid, width: frame.width), to: LayoutLimits.itemsPerGrid))
        let template = grid.item ?? Node(kind: .view, cornerRadius: nil, path: node.path + ".item")
        var children: [ResolvedNode] = []
        for i in 0..<count {
            let cell = Rect(x: frame.x + Double(i % columns) * stepX, y: frame.y + Double(i / columns) * stepY,
                            width: grid.itemWidth, height: grid.itemHeight)
            if cell.y >= frame.maxY || isFull { break }
            children.append(resolveNode(template, in: cell, context: context, defaultRadius: grid.item == nil ? blockRadius : nil))
        }
        return children
    }
}
