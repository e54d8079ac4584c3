import SkeletonLayout

/// Draws a prompt over a frame: the rest of the screen dimmed, a panel with the message (shaped
/// as labels are, by the sprite source), an entry with one bullet per typed character (or the
/// text where it may be shown) and a caret, and a notice under it. Without a place of its own (a
/// layout's `prompt` node) the panel is centred and the frame dimmed; in that node, nothing
/// around it changes. Everything is drawn clipped to the region asked for, so that a frame's
/// damage alone is redrawn.
public final class PromptOverlay {
    public let outputSize: Size
    /// The layout's `prompt` node's frame the panel fills, if any.
    public let place: Rect?
    /// The panel's rectangle on the output.
    public let panel: PixelRect
    private let dims: Bool
    private let sprites: SpriteSource?
    private let scale: Double
    /// Texts asked of the sprite source and not made yet: the panel is drawn again when they arrive.
    public private(set) var awaitsSprites = false

    static let panelColor: UInt32 = 0xFA_FAFA
    static let entryColor: UInt32 = 0xEC_EEF1
    static let inkColor = Color(rgb: 0x2B_2F36)
    static let noticeColor = Color(rgb: 0xB0_2A2A)
    /// Each channel of what lies outside the panel is kept at this much of 255.
    static let dimming: UInt32 = 110

    /// `place`: a layout's `prompt` node's frame on this output; nil: a panel centred on the output.
    public init(outputSize: Size, place: Rect? = nil, sprites: SpriteSource?) {
        self.outputSize = outputSize
        self.place = place
        self.sprites = sprites
        let shorter = Double(min(outputSize.width, outputSize.height))
        scale = min(3, max(0.6, shorter / 720))
        if let place {
            panel = PixelRect(enclosing: place).intersection(PixelRect(x: 0, y: 0, width: outputSize.width, height: outputSize.height))
            dims = false
        } else {
            let width = min(Double(outputSize.width) - 32, 560 * scale)
            let height = 168 * scale
            panel = PixelRect(enclosing: Rect(x: (Double(outputSize.width) - width) / 2, y: (Double(outputSize.height) - height) / 2,
                                              width: width, height: height))
            dims = true
        }
    }

    /// Whether drawing `picture` touches more than the panel (the dimming does).
    public var coversOutput: Bool { dims }

    /// Draws `picture` over what `canvas` holds inside `region`.
    public func draw(_ picture: PromptPicture, region: PixelRect, into canvas: Canvas) {
        let region = region.intersection(canvas.bounds)
        guard !region.isEmpty else { return }
        if dims { dim(region, in: canvas) }
        let inside = region.intersection(panel)
        guard !inside.isEmpty else { return }
        awaitsSprites = false
        let radius = 14 * scale
        let panelRect = Rect(panel)
        Rasterizer.fill(CoverageMask(rect: panelRect, radius: radius, clip: panelRect), canvas: canvas, region: inside,
                        paint: .solid(Color(rgb: Self.panelColor)))
        let pad = 20 * scale
        let lineHeight = 26 * scale
        let messageBox = Rect(x: panelRect.x + pad, y: panelRect.y + pad, width: panelRect.width - 2 * pad, height: lineHeight * 2)
        text(picture.message, in: messageBox, size: 18 * scale, color: Self.inkColor, lines: 2, path: "prompt.message", region: inside, canvas: canvas)
        let entry = Rect(x: messageBox.x, y: messageBox.maxY + 8 * scale, width: messageBox.width, height: 40 * scale)
        Rasterizer.fill(CoverageMask(rect: entry, radius: 8 * scale, clip: entry), canvas: canvas, region: inside,
                        paint: .solid(Color(rgb: Self.entryColor)))
        let caretX: Double
        if let typed = picture.text {
            let box = Rect(x: entry.x + 12 * scale, y: entry.y + 8 * scale, width: entry.width - 24 * scale, height: entry.height - 12 * scale)
            let end = text(typed, in: box, size: 18 * scale, color: Self.inkColor, lines: 1, path: "prompt.entry", region: inside, canvas: canvas)
            caretX = min(box.maxX, (end ?? box.x) + 2 * scale)
        } else {
            caretX = bullets(picture.bullets, in: entry, region: inside, canvas: canvas)
        }
        let caret = Rect(x: caretX, y: entry.y + 9 * scale, width: max(2, 2 * scale), height: entry.height - 18 * scale)
        Rasterizer.fill(CoverageMask(rect: caret, radius: 0, clip: entry), canvas: canvas, region: inside, paint: .solid(Self.inkColor))
        if let notice = picture.notice {
            let box = Rect(x: entry.x, y: entry.maxY + 8 * scale, width: entry.width, height: 22 * scale)
            text(notice, in: box, size: 14 * scale, color: Self.noticeColor, lines: 1, path: "prompt.notice", region: inside, canvas: canvas)
        }
    }

    /// Bullets from the entry's left edge, as many as fit (then the caret stays at the end);
    /// returns where the caret goes.
    private func bullets(_ count: Int, in entry: Rect, region: PixelRect, canvas: Canvas) -> Double {
        let diameter = 10 * scale
        let step = 18 * scale
        let left = entry.x + 14 * scale
        let fitting = max(0, Int((entry.width - 28 * scale) / step))
        let shown = min(count, fitting)
        let y = entry.y + (entry.height - diameter) / 2
        for i in 0..<shown {
            let dot = Rect(x: left + Double(i) * step, y: y, width: diameter, height: diameter)
            Rasterizer.fill(CoverageMask(rect: dot, radius: diameter / 2, clip: entry), canvas: canvas, region: region, paint: .solid(Self.inkColor))
        }
        return left + Double(shown) * step
    }

    /// Draws a text in `box`; returns where its pixels end on the right, when it is drawn.
    @discardableResult
    private func text(_ string: String, in box: Rect, size: Double, color: Color, lines: Int, path: String, region: PixelRect, canvas: Canvas) -> Double? {
        guard !string.isEmpty, let sprites else { return nil }
        let run = TextRun(text: string, pixelSize: size, color: color, alignment: .left, maxLines: lines)
        let item = SpriteItem(rect: box, clip: box, content: .text(run),
                              fallback: SkeletonShape(rect: box, clip: box, cornerRadius: 4, tint: Color(rgb: 0xDD_DDDD), gradient: [], delay: 0),
                              nodePath: path)
        switch sprites.sprite(for: item, outputSize: outputSize) {
        case .success(let sprite)?:
            canvas.composite(sprite.pixels.canvas, x: sprite.x, y: sprite.y, within: region.intersection(PixelRect(enclosing: box)))
            return Double(sprite.x + Self.inkEnd(sprite.pixels.canvas))
        case .failure?:
            return nil
        case nil:
            awaitsSprites = true
            return nil
        }
    }

    /// One past the rightmost column with ink (a text sprite spans its whole box).
    private static func inkEnd(_ canvas: Canvas) -> Int {
        var end = 0
        for y in 0..<canvas.height {
            let row = canvas.row(y)
            var x = canvas.width
            while x > end, row[x - 1] >> 24 == 0 { x -= 1 }
            end = max(end, x)
        }
        return end
    }

    /// The panel is painted over the dimmed region: its rounded corners show the dimmed frame.
    private func dim(_ r: PixelRect, in canvas: Canvas) {
        for y in r.y..<r.maxY {
            let row = canvas.row(y) + r.x
            for i in 0..<r.width { row[i] = PixelMath.scale(row[i], by: Self.dimming) }
        }
    }
}
