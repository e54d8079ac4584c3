import SkeletonLayout

/// Draws a resolved layout with a presentation at a given time, whole or by regions, and
/// reports which rectangles changed since the previous frame it drew (for a cheap present).
public final class FrameRenderer: @unchecked Sendable {
    public let layout: ResolvedLayout
    public let animator: ShapeAnimator
    private let background: UInt32
    private let masks: [CoverageMask]
    /// The masks' bounds side by side, and an index of them, for finding which shapes a region touches.
    private let maskBounds: [PixelRect]
    private let itemIndex: ItemIndex
    private var lastTime: Double?

    /// `reusing` lends its coverage masks when its shapes have the same geometry (a change of
    /// colours or animation only), which makes such a change cheap. `sprites` makes the pixels
    /// of pictures and texts; without it (or where it fails) they show as their fallback skeletons.
    public init(layout: ResolvedLayout, presentation: Presentation, direction: SlideDirection, reusing other: FrameRenderer? = nil,
                sprites: SpriteSource? = nil) {
        self.layout = layout
        self.animator = ShapeAnimator(presentation: presentation, direction: direction, outputSize: layout.outputSize)
        self.background = layout.background.xrgb
        var items = layout.items
        var made: [Int: Sprite] = [:]
        var problems: [SpriteError] = []
        var awaited = false
        for index in items.indices {
            guard case .sprite(let item) = items[index] else { continue }
            guard let sprites else {
                problems.append(SpriteError(nodePath: item.nodePath, reason: "nothing here makes pictures or texts"))
                items[index] = .skeleton(item.fallback)
                continue
            }
            switch sprites.sprite(for: item, outputSize: layout.outputSize) {
            case .success(let sprite): made[index] = sprite
            case .failure(let error):
                problems.append(error)
                items[index] = .skeleton(item.fallback)
            case nil:
                awaited = true
                items[index] = .skeleton(item.fallback)
            }
        }
        self.awaitsSprites = awaited
        self.items = items
        self.sprites = items.indices.map { made[$0] }
        self.fills = Array(repeating: nil, count: items.count)
        self.contentProblems = problems
        let geometry = items.indices.map { Self.geometry(of: items[$0], sprite: made[$0]) }
        if let other, other.geometry == geometry {
            self.masks = other.masks
        } else {
            self.masks = geometry.map { CoverageMask(rect: $0.rect, radius: $0.radius, clip: $0.clip) }
        }
        self.maskBounds = masks.map(\.bounds)
        self.itemIndex = ItemIndex(bounds: maskBounds, outputSize: layout.outputSize)
        self.geometry = geometry
        self.skeletons = items.indices.compactMap { index in
            guard case .skeleton(let shape) = items[index] else { return nil }
            return SkeletonEntry(item: index, shape: shape, far: shape.tint.complement)
        }
        var bars: [Int: ProgressBar] = [:]
        for index in items.indices {
            if case .progress(let item) = items[index] { bars[index] = ProgressBar(item) }
        }
        self.bars = bars
        let animator = self.animator
        self.stops = items.map { item in
            switch item {
            case .content(let fill): return PaintStops([fill.color])
            case .skeleton(let shape): return animator.stops(for: shape)
            case .progress(let bar): return PaintStops([bar.trackColor])
            case .sprite: return PaintStops([.black])
            }
        }
        self.fillStops = bars.mapValues { PaintStops([$0.item.fillColor]) }
        var tables: [[Color]: GradientTable] = [:]
        self.tables = items.map { item in
            guard case .skeleton(let shape) = item, presentation.style == .gradient else { return nil }
            if let table = tables[shape.gradient] { return table }
            let table = GradientTable(stops: shape.gradient)
            tables[shape.gradient] = table
            return table
        }
        self.paints = stops.map { ShapePaint(stops: $0) }
        self.scratch = PixelBuffer(width: max(1, layout.outputSize.width), height: 2)
        self.drawsAlone = items.indices.map { made[$0] == nil && bars[$0] == nil }
    }

    /// The items drawn: the layout's, with sprites that could not be made as their fallbacks.
    public let items: [DrawItem]
    /// Per item, the pixels of its sprite if it is one that could be made.
    private let sprites: [Sprite?]
    /// Per item, a bar's fill at `paintTime`: worked out once per frame, not once per region.
    private var fills: [(mask: CoverageMask, paint: ShapePaint)?]
    /// Pictures and texts that could not be made, each with its node's path and the reason.
    public let contentProblems: [SpriteError]
    /// Some pictures or texts were still being made: they show as skeletons, and a renderer made
    /// once they are ready draws them.
    public let awaitsSprites: Bool
    /// Progress bars by item index, with their value slides.
    private var bars: [Int: ProgressBar]
    private let fillStops: [Int: PaintStops]
    /// Damage owed to content that changed while this renderer took over from another.
    private var inheritedDamage: [PixelRect] = []

    /// The skeleton shapes with their item indices.
    private let skeletons: [SkeletonEntry]

    /// A struct, not a tuple: walking an array of tuples copied each one through the runtime's
    /// generic tuple witnesses, twice a frame per shape.
    private struct SkeletonEntry {
        let item: Int
        let shape: SkeletonShape
        /// Its pulse's far colour, worked out once.
        let far: Color
    }
    private let geometry: [ItemGeometry]

    struct ItemGeometry: Equatable {
        var rect: Rect
        var radius: Double
        var clip: Rect
    }

    private static func geometry(of item: DrawItem, sprite: Sprite?) -> ItemGeometry {
        switch item {
        case .content(let fill): return ItemGeometry(rect: fill.rect, radius: fill.cornerRadius, clip: fill.clip)
        case .skeleton(let shape): return ItemGeometry(rect: shape.rect, radius: shape.cornerRadius, clip: shape.clip)
        case .progress(let bar): return ItemGeometry(rect: bar.rect, radius: bar.cornerRadius, clip: bar.clip)
        case .sprite(let item):
            let b = sprite?.bounds ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            let bounds = Rect(b)
            let clip = item.content.isFirmwareLogo ? bounds : item.clip
            return ItemGeometry(rect: bounds, radius: 0, clip: clip)
        }
    }
    /// Per item, the sampled gradient its sweep reads (shared between equal gradients).
    private let tables: [GradientTable?]
    /// Per item, its colours converted once (frames then allocate no colour arrays).
    private let stops: [PaintStops]
    /// Per item, its paint at `paintTime`: worked out once per frame, not once per region.
    private var paints: [ShapePaint]
    private var paintTime: Double?
    /// Two rows of the output's width a region is drawn with, so that frames allocate nothing:
    /// a sweep's column colours (row 0), and the row a region of one shape is drawn in before it
    /// is copied into a mirror (row 1).
    private let scratch: PixelBuffer
    /// Per item, whether it is drawn by its mask and paint alone (no sprite, no bar's fill).
    private let drawsAlone: [Bool]

    public var outputBounds: PixelRect {
        PixelRect(x: 0, y: 0, width: layout.outputSize.width, height: layout.outputSize.height)
    }

    /// True when successive frames differ.
    public var isAnimating: Bool { (animator.moves && !skeletons.isEmpty) || bars.values.contains { $0.item.value == .indeterminate } }

    /// True when a later frame will differ from the last one drawn: a bar is indeterminate, or
    /// a change of value has not reached its end on screen yet.
    public var contentMoves: Bool {
        bars.values.contains { $0.moves(after: lastTime) }
    }

    /// Redraws everything inside `region` (background, content, skeletons) for `time`.
    public func draw(_ region: PixelRect, at time: Double, into canvas: Canvas) {
        let region = region.intersection(canvas.bounds)
        guard !region.isEmpty else { return }
        updatePaints(for: time)
        // The scratch row holds the columns of a canvas no wider than the output.
        let columns = canvas.width <= scratch.width ? scratch.canvas.row(0) : nil
        // The lowest item in the region lays the background around itself as it draws.
        var backgroundPending = true
        itemIndex.forEachItem(in: region) { index in
            if let sprite = sprites[index] {
                if backgroundPending { canvas.fill(region, with: background) }
                canvas.composite(sprite.pixels.canvas, x: sprite.x, y: sprite.y,
                                 within: region.intersection(maskBounds[index]))
            } else {
                Rasterizer.fill(masks[index], canvas: canvas, region: region, paint: paints[index],
                                background: backgroundPending ? background : nil, columns: columns)
                if let fill = fills[index] {
                    Rasterizer.fill(fill.mask, canvas: canvas, region: region, paint: fill.paint)
                }
            }
            backgroundPending = false
        }
        if backgroundPending { canvas.fill(region, with: background) }
    }

    /// Redraws `region` for `time` into `target` (a canvas of the shadow's size), writing it
    /// only. Where the shapes in the region do not overlap, each is drawn row by row into
    /// `target` (a repeated row drawn once in a scratch row and copied), and the rest of the
    /// region is laid with the background; any other region is drawn in `shadow` and copied.
    func draw(_ region: PixelRect, at time: Double, into target: Canvas, shadow: Canvas) {
        precondition(target.width == shadow.width && target.height == shadow.height, "a target has the shadow's size")
        precondition(target.width <= scratch.width, "a target is no wider than the output")
        let region = region.intersection(target.bounds)
        guard !region.isEmpty else { return }
        updatePaints(for: time)
        guard let pieces = separateShapes(in: region) else {
            draw(region, at: time, into: shadow)
            target.copy(region, from: shadow)
            return
        }
        for index in pieces {
            Rasterizer.fill(masks[index], canvas: target, region: region.intersection(maskBounds[index]), paint: paints[index],
                            background: background, rowBuffer: scratch.canvas.row(1), columns: scratch.canvas.row(0))
        }
        guard pieces.count != 1 || !region.intersection(maskBounds[pieces[0]]).contains(region) else { return }
        for rect in region.subtracting(pieces.map { maskBounds[$0] }) { target.fill(rect, with: background) }
    }

    /// The items touching `region` when each is drawn by its mask and paint alone and no two of
    /// them overlap inside it (none: the region is background); nil otherwise.
    private func separateShapes(in region: PixelRect) -> [Int]? {
        var found: [Int] = []
        var separate = true
        itemIndex.forEachItem(in: region) { index in
            guard separate else { return }
            let piece = region.intersection(maskBounds[index])
            separate = drawsAlone[index] && !found.contains { region.intersection(maskBounds[$0]).intersects(piece) }
            found.append(index)
        }
        return separate ? found : nil
    }

    /// Value slides waiting for their first frame start at `time` (their fills change with it).
    private func startSlides(at time: Double) {
        for index in bars.keys where bars[index]?.slide.map({ $0.start == nil }) == true {
            bars[index]?.startSlide(at: time)
            paintTime = nil
        }
    }

    private func updatePaints(for time: Double) {
        guard paintTime != time else { return }
        paintTime = time
        var memo = ProgressMemo(time: time)
        for k in skeletons.indices {
            let item = skeletons[k].item
            paints[item] = animator.paint(for: skeletons[k].shape, progress: memo.progress(of: skeletons[k].shape, animator),
                                          table: tables[item], stops: stops[item], far: skeletons[k].far)
        }
        for (item, bar) in bars {
            fills[item] = (bar.fillMask(at: time), ShapePaint(stops: fillStops[item]!))
        }
    }

    /// Draws the whole frame and remembers `time` as the last frame drawn.
    @discardableResult
    public func renderFull(at time: Double, into canvas: Canvas) -> PixelRect {
        startSlides(at: time)
        draw(canvas.bounds, at: time, into: canvas)
        lastTime = time
        return canvas.bounds
    }

    /// Draws the frame for `time` into a canvas that holds this renderer's previous frame,
    /// touching only what changed; returns those rectangles (the whole canvas the first time).
    /// With `mirror`, those rectangles and the ones it lacks are drawn into the mirror instead
    /// (see `draw(_:at:into:shadow:)`): afterwards it holds this frame wherever it held the
    /// frame it lacked rectangles of, and `canvas` lags behind it where the mirror alone was
    /// drawn (`redrawLastFrame` brings it up to date).
    public func render(at time: Double, into canvas: Canvas, mirror: Mirror? = nil) -> [PixelRect] {
        guard let last = lastTime else {
            let whole = renderFull(at: time, into: canvas)
            mirror?.canvas.copy(whole, from: canvas)
            return [whole]
        }
        startSlides(at: time)
        let rects = PixelRect.coalesce(changedRects(from: last, to: time) + inheritedDamage)
        inheritedDamage = []
        if let mirror {
            // Redrawing what the mirror lacks costs less than copying it: the regions grow by a
            // few columns, and the mirror is never read.
            for rect in PixelRect.coalesce(rects + mirror.lacks) { draw(rect, at: time, into: mirror.canvas, shadow: canvas) }
        } else {
            for rect in rects { draw(rect, at: time, into: canvas) }
        }
        lastTime = time
        return rects
    }

    /// Draws the last frame drawn whole into `canvas` again (a shadow that lags behind a mirror).
    public func redrawLastFrame(into canvas: Canvas) {
        guard let lastTime else { return }
        draw(canvas.bounds, at: lastTime, into: canvas)
    }

    /// Takes over the frame `other` drew last when the two differ only in content (texts,
    /// pictures, bar values, backgrounds) at the same places: the next `render` then redraws
    /// only what changed, and a bar whose value changed slides from the value `other` showed.
    /// False (and nothing taken) when anything else differs.
    public func continueFrom(_ other: FrameRenderer) -> Bool {
        guard let last = other.lastTime, other.layout.outputSize == layout.outputSize, other.background == background,
              other.items.count == items.count, other.geometryOfShapes == geometryOfShapes else { return false }
        var damage: [PixelRect] = []
        var slides: [Int: ProgressBar] = [:]
        for index in items.indices where items[index] != other.items[index] {
            switch (items[index], other.items[index]) {
            case (.progress(let new), .progress(let old)) where new.rect == old.rect && new.clip == old.clip:
                var bar = ProgressBar(new)
                if let from = other.bars[index]?.shownValue(at: last), new.value.fraction != nil {
                    bar.slide = (from, nil)
                }
                slides[index] = bar
                damage.append(maskBounds[index])
            case (.sprite, .sprite), (.content, .content), (.sprite, .skeleton), (.skeleton, .sprite):
                damage += [maskBounds[index], other.maskBounds[index]]
            default:
                return false
            }
        }
        for (index, bar) in slides { bars[index] = bar }
        paintTime = nil
        lastTime = last
        inheritedDamage = damage.filter { !$0.isEmpty }.map { $0.intersection(outputBounds) }
        return true
    }

    /// The skeleton shapes' geometry: equal when only content differs.
    private var geometryOfShapes: [ItemGeometry] { skeletons.map { geometry[$0.item] } }

    /// Forgets the previous frame: the next `render` draws everything.
    public func invalidate() { lastTime = nil }

    /// How many of the frames at `first`, `first + step`, … (at most `count`), one after
    /// another, have the pixels of the frame at `t0`: no skeleton's paint and no bar's fill
    /// differs from it. Each stops at the first shape that differs.
    public func repeats(of t0: Double, from first: Double, step: Double, count: Int) -> Int {
        var before = ProgressMemo(time: t0)
        for n in 0..<count where !showsSameFrame(at: first + Double(n) * step, as: &before) { return n }
        return count
    }

    private func showsSameFrame(at t1: Double, as before: inout ProgressMemo) -> Bool {
        for bar in bars.values where bar.fill(at: before.time) != bar.fill(at: t1) { return false }
        guard animator.moves else { return true }
        var after = ProgressMemo(time: t1)
        for k in skeletons.indices where changedArea(ofSkeleton: k, &before, &after) != nil { return false }
        return true
    }

    /// The part of skeleton `k` that differs between the memos' two times.
    private func changedArea(ofSkeleton k: Int, _ before: inout ProgressMemo, _ after: inout ProgressMemo) -> Rect? {
        let shape = skeletons[k].shape
        let p0 = before.progress(of: shape, animator), p1 = after.progress(of: shape, animator)
        return animator.changedArea(of: shape, fromProgress: p0, toProgress: p1, table: tables[skeletons[k].item],
                                    far: skeletons[k].far)
    }

    /// The pixel rectangles that can differ between the frames at `t0` and `t1`.
    public func changedRects(from t0: Double, to t1: Double) -> [PixelRect] {
        var rects: [PixelRect] = []
        for (index, bar) in bars {
            let before = bar.fill(at: t0), after = bar.fill(at: t1)
            guard before != after else { continue }
            let rect = PixelRect(enclosing: before).union(PixelRect(enclosing: after)).intersection(maskBounds[index])
            if !rect.isEmpty { rects.append(rect) }
        }
        guard animator.moves else { return PixelRect.coalesce(rects) }
        var before = ProgressMemo(time: t0), after = ProgressMemo(time: t1)
        for k in skeletons.indices {
            guard let area = changedArea(ofSkeleton: k, &before, &after) else { continue }
            let rect = PixelRect(enclosing: area).intersection(outputBounds)
            if !rect.isEmpty { rects.append(rect) }
        }
        return PixelRect.coalesce(rects)
    }
}

extension PixelRect {
    /// The smallest pixel rectangle that contains `r`, within a billion pixels of the origin
    /// (a band far off a huge shape must not overflow the conversion; callers clip to an output).
    public init(enclosing r: Rect) {
        func pixel(_ v: Double) -> Int { v.isNaN ? 0 : Int(min(max(v, -1e9), 1e9)) }
        let x0 = pixel(r.x.rounded(.down)), y0 = pixel(r.y.rounded(.down))
        let x1 = pixel(r.maxX.rounded(.up)), y1 = pixel(r.maxY.rounded(.up))
        self.init(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Merges rectangles that overlap or touch when their union wastes little, and drops
    /// those inside others. Merged rectangles are marked, not removed, until the end: thousands
    /// of shapes' damage costs what overlaps in height, not a move of the list per merge.
    public static func coalesce(_ input: consuming [PixelRect]) -> [PixelRect] {
        var rects = input
        rects.removeAll { $0.isEmpty }
        guard rects.count > 1 else { return rects }
        rects.sort { $0.y != $1.y ? $0.y < $1.y : $0.x < $1.x }
        var merged = [Bool](repeating: false, count: rects.count)
        var i = 0
        while i < rects.count {
            if merged[i] { i += 1; continue }
            var j = i + 1
            var mergedAny = false
            while j < rects.count {
                if merged[j] { j += 1; continue }
                let a = rects[i], b = rects[j]
                if b.y > a.maxY { break }
                // Both are non-empty and a.y <= b.y: the union's and the overlap's areas directly.
                let left = min(a.x, b.x), right = max(a.maxX, b.maxX), bottom = max(a.maxY, b.maxY)
                let overlapWidth = min(a.maxX, b.maxX) - max(a.x, b.x), overlapHeight = min(a.maxY, b.maxY) - b.y
                let overlap = overlapWidth > 0 && overlapHeight > 0 ? overlapWidth * overlapHeight : 0
                let areas = a.width * a.height + b.width * b.height
                if (right - left) * (bottom - a.y) <= areas - overlap + areas / 8 {
                    rects[i] = PixelRect(x: left, y: a.y, width: right - left, height: bottom - a.y)
                    merged[j] = true
                    mergedAny = true
                }
                j += 1
            }
            if !mergedAny { i += 1 }
        }
        return rects.indices.compactMap { merged[$0] ? nil : rects[$0] }
    }
}
