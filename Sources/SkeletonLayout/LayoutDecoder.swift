/// Turns a parsed layout document into a `Layout`, collecting every issue on the way.
public struct LayoutDecoder {
    var reader = ValueReader()
    private var ids: [String: String] = [:]
    /// The directory relative picture paths are read from: the layout file's.
    public var baseDirectory: String?

    public init(baseDirectory: String? = nil) {
        self.baseDirectory = baseDirectory
    }

    public var issues: [LayoutIssue] { reader.issues }

    /// The lengths in design pixels a layout gives besides frames: line heights and spacings
    /// (a line height above 0), corner radii, paddings.
    static let lengthRange: ClosedRange<Double> = 0...4096

    /// Decodes a whole layout; nil when any issue was found (they are in `issues`).
    public mutating func decodeLayout(_ document: JSONValue, defaultName: String) -> Layout? {
        let path = JSONPath.document
        guard var top = reader.object(document, path) else { return nil }
        _ = top.member("$schema")
        _ = top.member("description")
        let name = top.member("name").flatMap { reader.string($0.value, $0.path) } ?? defaultName
        var canvas: CanvasSpec?
        if let m = top.member("canvas") { canvas = decodeCanvas(m.value, m.path) } else {
            reader.fail(path.key("canvas"), "missing key \"canvas\": a layout needs {\"width\", \"height\"}")
        }
        let appearance = top.member("appearance").map { decodeAppearance($0.value, $0.path) } ?? Appearance()
        let presentation = top.member("presentation").map { decodePresentation($0.value, $0.path) } ?? Presentation()
        var root: Node?
        if let m = top.member("root") { root = decodeNode(m.value, m.path, isTemplate: false) } else {
            reader.fail(path.key("root"), "missing key \"root\": a layout needs a root node")
        }
        reader.issues += top.unknownKeyIssues()
        guard let canvas, let root, reader.issues.isEmpty else { return nil }
        return Layout(name: name, canvas: canvas, appearance: appearance, presentation: presentation, root: root)
    }

    mutating func decodeCanvas(_ value: JSONValue, _ path: JSONPath) -> CanvasSpec? {
        guard var o = reader.object(value, path) else { return nil }
        let width = o.member("width").flatMap { reader.integer($0.value, $0.path, in: 1...16384) }
        let height = o.member("height").flatMap { reader.integer($0.value, $0.path, in: 1...16384) }
        for key in ["width", "height"] where !o.has(key) {
            reader.fail(path.key(key), "missing key \"\(key)\": expected an integer from 1 to 16384")
        }
        let background = o.member("background").flatMap { reader.color($0.value, $0.path) } ?? .white
        let scale = o.member("scale").flatMap { reader.enumeration($0.value, $0.path, ScaleMode.self) } ?? .fit
        let direction = o.member("direction").flatMap { reader.enumeration($0.value, $0.path, LayoutDirection.self) } ?? .ltr
        reader.issues += o.unknownKeyIssues()
        guard let width, let height else { return nil }
        return CanvasSpec(width: width, height: height, background: background, scale: scale, direction: direction)
    }

    mutating func decodeAppearance(_ value: JSONValue, _ path: JSONPath) -> Appearance {
        var result = Appearance()
        guard var o = reader.object(value, path) else { return result }
        let shared = decodeSharedAppearance(&o)
        result.tint = shared.tint
        result.gradient = shared.gradient
        if let v = shared.textLineHeight { result.textLineHeight = v }
        if let v = shared.textLineSpacing { result.textLineSpacing = v }
        if let v = shared.lastLineFillPercent { result.lastLineFillPercent = v }
        if let v = shared.linesCornerRadius { result.linesCornerRadius = v }
        if let m = o.member("cornerRadius"), let v = reader.number(m.value, m.path, in: Self.lengthRange) { result.cornerRadius = v }
        if let m = o.member("scheme"), let v = reader.enumeration(m.value, m.path, ColorScheme.self) { result.scheme = v }
        reader.issues += o.unknownKeyIssues()
        return result
    }

    /// The members a layout's `appearance` and a node both take, read and checked here for
    /// both: those given (the others nil).
    private mutating func decodeSharedAppearance(_ o: inout ObjectReader) -> NodeAppearance {
        var result = NodeAppearance()
        result.tint = o.member("tint").flatMap { reader.color($0.value, $0.path) }
        result.gradient = o.member("gradient").flatMap { reader.gradient($0.value, $0.path) }
        result.textLineHeight = o.member("textLineHeight").flatMap {
            reader.number($0.value, $0.path, in: Self.lengthRange, exclusiveMinimum: true)
        }
        result.textLineSpacing = o.member("textLineSpacing").flatMap { reader.number($0.value, $0.path, in: Self.lengthRange) }
        result.lastLineFillPercent = o.member("lastLineFillPercent").flatMap {
            reader.number($0.value, $0.path, in: -.greatestFiniteMagnitude...(.greatestFiniteMagnitude)).map { min(100, max(0, $0)) }
        }
        result.linesCornerRadius = o.member("linesCornerRadius").flatMap { reader.number($0.value, $0.path, in: Self.lengthRange) }
        return result
    }

    mutating func decodePresentation(_ value: JSONValue, _ path: JSONPath) -> Presentation {
        var result = Presentation()
        guard var o = reader.object(value, path) else { return result }
        if let m = o.member("style"), let v = reader.enumeration(m.value, m.path, SkeletonStyle.self) { result.style = v }
        if let m = o.member("animated"), let v = reader.bool(m.value, m.path) { result.animated = v }
        if let m = o.member("animation") { result = decodeAnimation(m.value, m.path).applied(to: result) }
        if let m = o.member("transition"), let v = decodeTransition(m.value, m.path) { result.transition = v }
        if let m = o.member("reducedMotion"), let v = reader.bool(m.value, m.path) { result.reducedMotion = v }
        reader.issues += o.unknownKeyIssues()
        return result
    }

    /// An `animation` object, as a layout's presentation and a request's overrides write it: the
    /// members given, each checked (the others nil).
    public mutating func decodeAnimation(_ value: JSONValue, _ path: JSONPath) -> PresentationOverrides {
        var result = PresentationOverrides()
        guard var o = reader.object(value, path) else { return result }
        result.direction = o.member("direction").flatMap { reader.enumeration($0.value, $0.path, SlideDirection.self) }
        result.duration = o.member("duration").flatMap { WireNumber.animationDuration.read($0.value, $0.path, &reader) }
        result.timing = o.member("timing").flatMap { reader.enumeration($0.value, $0.path, TimingCurveName.self) }
        result.autoreverse = o.member("autoreverse").flatMap { reader.bool($0.value, $0.path) }
        result.pause = o.member("pause").flatMap { WireNumber.animationPause.read($0.value, $0.path, &reader) }
        result.space = o.member("space").flatMap { reader.enumeration($0.value, $0.path, SweepSpace.self) }
        result.stagger = o.member("stagger").flatMap { WireNumber.animationStagger.read($0.value, $0.path, &reader) }
        reader.issues += o.unknownKeyIssues()
        return result
    }

    public mutating func decodeTransition(_ value: JSONValue, _ path: JSONPath) -> TransitionSpec? {
        guard var o = reader.object(value, path) else { return nil }
        let kind = o.member("kind").flatMap { reader.string($0.value, $0.path).map { ($0, path.key("kind")) } }
        let duration = o.member("duration").flatMap { WireNumber.transitionDuration.read($0.value, $0.path, &reader) }
        reader.issues += o.unknownKeyIssues()
        guard let (name, kindPath) = kind else {
            if !o.has("kind") { reader.fail(path.key("kind"), "missing key \"kind\": expected \"none\" or \"crossDissolve\"") }
            return nil
        }
        switch name {
        case "none": return TransitionSpec.none
        case "crossDissolve": return .crossDissolve(duration: duration ?? TransitionSpec.defaultCrossDissolveDuration)
        default:
            reader.fail(kindPath, "unknown value \"\(name)\": expected one of \"none\", \"crossDissolve\"")
            return nil
        }
    }

    mutating func decodeNode(_ value: JSONValue, _ path: JSONPath, isTemplate: Bool) -> Node? {
        guard var o = reader.object(value, path) else { return nil }
        let kind: NodeKind?
        if let m = o.member("kind") { kind = reader.enumeration(m.value, m.path, NodeKind.self) } else {
            reader.fail(path.key("kind"), "missing key \"kind\": expected one of " + NodeKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            kind = nil
        }
        var id: String?
        if let m = o.member("id"), let s = reader.string(m.value, m.path) {
            if s.isEmpty { reader.fail(m.path, "an id must not be empty") }
            else if let first = ids[s] { reader.fail(m.path, "duplicate id \"\(s)\": already used at \(first)") }
            else { ids[s] = m.path.text; id = s }
        }
        var frame = FrameSpec.fullParent
        if let m = o.member("frame"), let f = decodeFrame(m.value, m.path) { frame = f }
        let skeletonable = o.member("skeletonable").flatMap { reader.bool($0.value, $0.path) } ?? true
        let hidden = o.member("hiddenWhenSkeletonActive").flatMap { reader.bool($0.value, $0.path) } ?? false
        let background = o.member("background").flatMap { reader.color($0.value, $0.path) }
        let cornerRadius = o.member("cornerRadius").flatMap { reader.number($0.value, $0.path, in: Self.lengthRange) }
        let shape = o.member("shape").flatMap { reader.enumeration($0.value, $0.path, NodeShape.self) } ?? .rectangle
        let appearance = decodeSharedAppearance(&o)
        let delay = o.member("animationDelay").flatMap { reader.number($0.value, $0.path, in: 0...60) } ?? 0

        var children: [Node] = []
        var text: TextSpec?
        var list: ListSpec?
        var grid: GridSpec?
        var picture: PictureSpec?
        var label: LabelSpec?
        var progress: ProgressSpec?
        let role = o.member("role").flatMap { reader.enumeration($0.value, $0.path, NodeRole.self) }
        switch kind {
        case .view:
            if let m = o.member("children"), let items = reader.array(m.value, m.path) {
                for (i, item) in items.enumerated() {
                    if let child = decodeNode(item, m.path.index(i), isTemplate: isTemplate) { children.append(child) }
                }
            }
        case .text: text = decodeText(&o)
        case .list: list = decodeList(&o, path)
        case .grid: grid = decodeGrid(&o, path)
        case .image: picture = decodePicture(&o, path)
        case .label: label = decodeLabel(&o, path)
        case .progress: progress = decodeProgress(&o)
        case nil: break
        }
        if let role, let kind {
            if role.kind != kind {
                reader.fail(path.key("role"), "role \"\(role.rawValue)\" is for a \(role.kind.rawValue) node, not a \(kind.rawValue) node")
            } else if id == nil {
                reader.fail(path.key("role"), "a node with a role needs an \"id\": commands reach it by its id")
            }
        }
        for key in ["children"] where kind != .view && o.has(key) && kind != nil {
            reader.fail(path.key(key), "a \(kind!.rawValue) node has no children: only a view does (lists and grids take templates)")
            _ = o.member(key)
        }
        if kind == nil {
            for key in ["children", "lines", "padding", "lastLineAlignment", "verticalAlignment", "rowHeight", "rows",
                        "row", "sections", "itemSize", "spacing", "items", "item", "source", "contentMode", "text", "font",
                        "fontSize", "weight", "color", "alignment", "lineHeight", "trackColor", "fillColor", "value",
                        "direction", "valueAnimation", "indeterminatePeriod"] { _ = o.member(key) }
        }
        reader.issues += o.unknownKeyIssues()
        guard let kind else { return nil }
        return Node(kind: kind, id: id, frame: frame, skeletonable: skeletonable, hiddenWhenSkeletonActive: hidden,
                    background: background, cornerRadius: cornerRadius, shape: shape, appearance: appearance,
                    animationDelay: delay, children: children, text: text, list: list, grid: grid, picture: picture,
                    label: label, progress: progress, role: role, path: path.text)
    }

    private mutating func decodePicture(_ o: inout ObjectReader, _ path: JSONPath) -> PictureSpec? {
        let mode = o.member("contentMode").flatMap { reader.enumeration($0.value, $0.path, ContentMode.self) }
        guard let m = o.member("source") else {
            if mode != nil { reader.fail(path.key("contentMode"), "a contentMode needs a \"source\"") }
            return nil
        }
        guard let text = reader.string(m.value, m.path) else { return nil }
        if text.isEmpty {
            reader.fail(m.path, "expected a PNG file's path or \"bgrt\", found an empty string")
            return nil
        }
        let source: PictureSource
        if text == "bgrt" { source = .bgrt }
        else if text.hasPrefix("/") || baseDirectory == nil { source = .file(text) }
        else { source = .file(baseDirectory! + "/" + text) }
        return PictureSpec(source: source, contentMode: mode ?? .scaleAspectFit)
    }

    private mutating func decodeLabel(_ o: inout ObjectReader, _ path: JSONPath) -> LabelSpec {
        var spec = LabelSpec(text: "")
        if let m = o.member("text"), let v = reader.string(m.value, m.path) { spec.text = v }
        if let m = o.member("font"), let v = reader.string(m.value, m.path) {
            if v.isEmpty { reader.fail(m.path, "expected a font file's path, found an empty string") } else {
                spec.font = v.hasPrefix("/") || baseDirectory == nil ? v : baseDirectory! + "/" + v
            }
        }
        if let m = o.member("fontSize"), let v = reader.number(m.value, m.path, in: 0...1024, exclusiveMinimum: true) { spec.fontSize = v }
        if let m = o.member("weight"), let v = reader.integer(m.value, m.path, in: 1...1000) { spec.weight = v }
        if let m = o.member("color"), let v = reader.color(m.value, m.path) { spec.color = v }
        if let m = o.member("alignment"), let v = reader.enumeration(m.value, m.path, TextAlignment.self) { spec.alignment = v }
        if let m = o.member("lines"), let v = reader.repeatCount(m.value, m.path, in: 1...LayoutLimits.textLinesPerNode) {
            if case .count(let n) = v { spec.lines = n } else { spec.lines = nil }
        }
        if let m = o.member("lineHeight"), let v = reader.number(m.value, m.path, in: Self.lengthRange, exclusiveMinimum: true) { spec.lineHeight = v }
        return spec
    }

    private mutating func decodeProgress(_ o: inout ObjectReader) -> ProgressSpec {
        var spec = ProgressSpec()
        if let m = o.member("trackColor"), let v = reader.color(m.value, m.path) { spec.trackColor = v }
        if let m = o.member("fillColor"), let v = reader.color(m.value, m.path) { spec.fillColor = v }
        if let m = o.member("direction"), let v = reader.enumeration(m.value, m.path, LayoutDirection.self) { spec.direction = v }
        if let m = o.member("value"), let v = ProgressValue.read(m.value, m.path, &reader) { spec.value = v }
        if let m = o.member("valueAnimation"), let v = reader.number(m.value, m.path, in: 0...10) { spec.valueAnimation = v }
        if let m = o.member("indeterminatePeriod"), let v = reader.number(m.value, m.path, in: 0...60, exclusiveMinimum: true) {
            spec.indeterminatePeriod = v
        }
        return spec
    }

    private mutating func decodeFrame(_ value: JSONValue, _ path: JSONPath) -> FrameSpec? {
        guard let items = reader.array(value, path) else { return nil }
        guard items.count == 4 else {
            reader.fail(path, "expected [x, y, width, height] (4 values), found \(items.count)")
            return nil
        }
        let x = reader.dimension(items[0], path.index(0), isSize: false)
        let y = reader.dimension(items[1], path.index(1), isSize: false)
        let w = reader.dimension(items[2], path.index(2), isSize: true)
        let h = reader.dimension(items[3], path.index(3), isSize: true)
        guard let x, let y, let w, let h else { return nil }
        return FrameSpec(x: x, y: y, width: w, height: h)
    }

    private mutating func decodeText(_ o: inout ObjectReader) -> TextSpec {
        var spec = TextSpec()
        if let m = o.member("lines"), let v = reader.repeatCount(m.value, m.path, in: 1...LayoutLimits.textLinesPerNode) { spec.lines = v }
        if let m = o.member("padding"), let v = decodeInsets(m.value, m.path) { spec.padding = v }
        if let m = o.member("lastLineAlignment"), let v = reader.enumeration(m.value, m.path, LastLineAlignment.self) {
            spec.lastLineAlignment = v
        }
        if let m = o.member("verticalAlignment"), let v = reader.enumeration(m.value, m.path, VerticalAlignment.self) {
            spec.verticalAlignment = v
        }
        return spec
    }

    private mutating func decodeInsets(_ value: JSONValue, _ path: JSONPath) -> EdgeInsets? {
        if case .number = value {
            guard let v = reader.number(value, path, in: Self.lengthRange) else { return nil }
            return EdgeInsets(top: v, left: v, bottom: v, right: v)
        }
        guard case .object = value, var o = reader.object(value, path) else {
            reader.fail(path, "expected a number or {\"top\", \"left\", \"bottom\", \"right\"}, found \(value.typeDescription)")
            return nil
        }
        var insets = EdgeInsets()
        if let m = o.member("top"), let v = reader.number(m.value, m.path, in: Self.lengthRange) { insets.top = v }
        if let m = o.member("left"), let v = reader.number(m.value, m.path, in: Self.lengthRange) { insets.left = v }
        if let m = o.member("bottom"), let v = reader.number(m.value, m.path, in: Self.lengthRange) { insets.bottom = v }
        if let m = o.member("right"), let v = reader.number(m.value, m.path, in: Self.lengthRange) { insets.right = v }
        reader.issues += o.unknownKeyIssues()
        return insets
    }

    private mutating func decodeList(_ o: inout ObjectReader, _ path: JSONPath) -> ListSpec? {
        let rowHeight = o.member("rowHeight").flatMap { reader.number($0.value, $0.path, in: 1...16384) }
        if !o.has("rowHeight") { reader.fail(path.key("rowHeight"), "missing key \"rowHeight\": a list needs a row height") }
        let row = o.member("row").flatMap { decodeNode($0.value, $0.path, isTemplate: true) }
        if !o.has("row") { reader.fail(path.key("row"), "missing key \"row\": a list needs a row template node") }
        let rows = o.member("rows").flatMap { reader.repeatCount($0.value, $0.path, in: 0...LayoutLimits.rowsPerList) }
        var sections: [ListSection]?
        if let m = o.member("sections"), let items = reader.array(m.value, m.path) {
            if o.has("rows") { reader.fail(path.key("rows"), "give \"rows\" per section when a list has \"sections\"") }
            sections = []
            for (i, item) in items.enumerated() {
                if let s = decodeSection(item, m.path.index(i), defaultHeight: rowHeight ?? 0) { sections!.append(s) }
            }
        }
        guard let rowHeight, let row else { return nil }
        return ListSpec(rowHeight: rowHeight, row: row, sections: sections ?? [ListSection(rows: rows ?? .auto)])
    }

    private mutating func decodeSection(_ value: JSONValue, _ path: JSONPath, defaultHeight: Double) -> ListSection? {
        guard var o = reader.object(value, path) else { return nil }
        var section = ListSection()
        section.header = o.member("header").flatMap { decodeNode($0.value, $0.path, isTemplate: true) }
        section.headerHeight = o.member("headerHeight").flatMap { reader.number($0.value, $0.path, in: 0...16384) }
            ?? (section.header == nil ? 0 : defaultHeight)
        if let m = o.member("rows"), let v = reader.repeatCount(m.value, m.path, in: 0...LayoutLimits.rowsPerList) { section.rows = v }
        section.footer = o.member("footer").flatMap { decodeNode($0.value, $0.path, isTemplate: true) }
        section.footerHeight = o.member("footerHeight").flatMap { reader.number($0.value, $0.path, in: 0...16384) }
            ?? (section.footer == nil ? 0 : defaultHeight)
        reader.issues += o.unknownKeyIssues()
        return section
    }

    private mutating func decodeGrid(_ o: inout ObjectReader, _ path: JSONPath) -> GridSpec? {
        var size: (Double, Double)?
        if let m = o.member("itemSize") { size = decodePair(m.value, m.path, minimum: 1) } else {
            reader.fail(path.key("itemSize"), "missing key \"itemSize\": a grid needs [width, height]")
        }
        var spacing = (0.0, 0.0)
        if let m = o.member("spacing") {
            if case .number = m.value, let v = reader.number(m.value, m.path, in: 0...16384) { spacing = (v, v) }
            else if case .number = m.value {} else if let pair = decodePair(m.value, m.path, minimum: 0) { spacing = pair }
        }
        let items = o.member("items").flatMap { reader.repeatCount($0.value, $0.path, in: 0...LayoutLimits.itemsPerGrid) } ?? .auto
        let item = o.member("item").flatMap { decodeNode($0.value, $0.path, isTemplate: true) }
        guard let size else { return nil }
        return GridSpec(itemWidth: size.0, itemHeight: size.1, spacingX: spacing.0, spacingY: spacing.1, items: items, item: item)
    }

    private mutating func decodePair(_ value: JSONValue, _ path: JSONPath, minimum: Double) -> (Double, Double)? {
        guard let items = reader.array(value, path) else { return nil }
        guard items.count == 2 else {
            reader.fail(path, "expected [width, height] (2 numbers), found \(items.count) values")
            return nil
        }
        let a = reader.number(items[0], path.index(0), in: minimum...16384)
        let b = reader.number(items[1], path.index(1), in: minimum...16384)
        guard let a, let b else { return nil }
        return (a, b)
    }
}
