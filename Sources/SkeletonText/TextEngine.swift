import SkeletonRender

/// Shapes text with HarfBuzz and rasterizes it with FreeType into a label's box. Caches faces
/// per font file (and weight instance of a variable font) and glyph bitmaps per face, size,
/// glyph and subpixel phase; both live as long as the engine. Not thread-safe: one engine per
/// thread of drawing.
public final class TextEngine {
    /// DejaVu Sans, from Debian's fonts-dejavu-core.
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// The largest em size drawn, in pixels.
    public static let maximumSize = 1000.0
    /// The largest line height, in pixels.
    public static let maximumLineHeight = 10000.0

    /// Made for the first face: a start whose first frame draws no text runs none of FreeType.
    lazy var library = FontLibrary()
    var faces: [FaceKey: FontFace] = [:]
    var choices: [WeightRequest: FontChoice] = [:]
    private var glyphs: [GlyphKey: GlyphBitmap] = [:]
    /// Glyph bitmaps found in the cache, and rendered by FreeType because they were not.
    public private(set) var glyphCacheHits = 0
    public private(set) var glyphCacheMisses = 0

    public init() {}

    /// The font faces open (a file, or a variable font at a weight, each once).
    public var faceCount: Int { faces.count }

    /// `text` laid out in a `width` x `height` box: each paragraph in the layout's direction,
    /// runs of the other reordered by the Unicode bidirectional algorithm, wrapped at spaces to
    /// the width (a word wider than the line cut at a cluster boundary), hard newlines kept, the
    /// block centred vertically, each line aligned; at most `maxLines` lines or as many as fit the height,
    /// the last one ending in an ellipsis when text was cut. Premultiplied ARGB8888 pixels
    /// (alpha in the top byte), transparent where there is no ink; nothing outside the box.
    /// The box must be at least one pixel each way.
    public func render(_ text: String, style: TextStyle, width: Int, height: Int) throws(TextError) -> PixelBuffer {
        precondition(width > 0 && height > 0, "a label's box needs a positive size")
        try Self.validate(style)
        let face = faces[try choice(for: style).face]!
        let size = Int((style.size * 64).rounded())
        let font = face.shapingFont(size: size)
        let metrics = face.metrics(size: size)
        let lineHeight = style.lineHeight ?? metrics.lineSpacing
        let paragraphs = Self.paragraphs(of: text)
        let levels = paragraphs.map { Bidi.levels($0, rightToLeft: style.rightToLeft) }
        let boxWidth = width * 64
        var lines: [TextLine] = []
        for (index, paragraph) in paragraphs.enumerated() {
            let whole = Shaper.shapeLine(paragraph, range: 0..<paragraph.count, levels: levels[index], font: font)
            let ranges = LineBreaker.lines(paragraph, advances: whole.clusterAdvances(count: paragraph.count),
                                           clusterStarts: whole.clusterStarts(count: paragraph.count), width: boxWidth)
            lines += ranges.map { TextLine(paragraph: index, range: $0) }
        }
        let fitting = max(1, Int(min(Double(height) / lineHeight, Double(Int32.max))))
        let shown = min(style.maxLines ?? fitting, fitting)
        if lines.count > shown {
            lines.removeLast(lines.count - shown)
            lines[shown - 1].ellipsis = true
        }

        var mask = InkMask(width: width, height: height)
        let top = (Double(height) - Double(lines.count) * lineHeight) / 2
        let ascent = (lineHeight - metrics.ascender - metrics.descender) / 2 + metrics.ascender
        for (number, line) in lines.enumerated() {
            let paragraph = paragraphs[line.paragraph]
            let run = line.ellipsis
                ? Self.shapeEllipsized(paragraph, range: line.range, font: font, rightToLeft: style.rightToLeft, width: boxWidth)
                : Shaper.shapeLine(paragraph, range: line.range, levels: levels[line.paragraph], font: font)
            let baseline = Int((top + Double(number) * lineHeight + ascent).rounded())
            draw(run, into: &mask, origin: Self.origin(of: run, style: style, boxWidth: boxWidth), baseline: baseline,
                 face: face.key, size: size)
        }
        return mask.pixels(style.color)
    }

    /// What the style asks that its font cannot give (a weight it lacks); empty when none.
    public func notes(for style: TextStyle) throws(TextError) -> [String] {
        try Self.validate(style)
        return try choice(for: style).note.map { [$0] } ?? []
    }

    static func validate(_ style: TextStyle) throws(TextError) {
        func fail(_ reason: TextError.Reason) -> TextError { TextError(fontPath: style.fontPath, reason: reason) }
        guard style.size > 0 && style.size <= maximumSize else { throw fail(.badSize(style.size)) }
        if let height = style.lineHeight, !(height > 0 && height <= maximumLineHeight) { throw fail(.badLineHeight(height)) }
        if let lines = style.maxLines, lines < 1 { throw fail(.badMaxLines(lines)) }
        if let weight = style.weight, !(100...900).contains(weight) { throw fail(.noSuchWeight(weight)) }
    }

    /// The text's paragraphs as Unicode scalar values, split at hard line breaks (LF, CR,
    /// CR LF, NEL, U+2028, U+2029).
    static func paragraphs(of text: String) -> [[UInt32]] {
        var paragraphs: [[UInt32]] = [[]]
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            defer { afterCarriageReturn = value == 0x0D }
            if value == 0x0A && afterCarriageReturn { continue }
            if value == 0x0A || value == 0x0D || value == 0x85 || value == 0x2028 || value == 0x2029 {
                paragraphs.append([])
            } else {
                paragraphs[paragraphs.count - 1].append(value)
            }
        }
        return paragraphs
    }

    /// Where a line's run starts, in 1/64 pixel from the box's left edge, on a whole pixel.
    static func origin(of run: ShapedRun, style: TextStyle, boxWidth: Int) -> Int {
        let free = boxWidth - run.width
        let offset: Int
        switch style.alignment {
        case .left: offset = 0
        case .right: offset = free
        case .center: offset = free / 2
        case .natural: offset = style.rightToLeft ? free : 0
        }
        return Int((Double(offset) / 64).rounded()) * 64
    }

    /// Draws `run` with its pen starting at `origin` (1/64 pixel) on `baseline`: each glyph
    /// at its pen position rounded to a quarter pixel.
    private func draw(_ run: ShapedRun, into mask: inout InkMask, origin: Int, baseline: Int, face: FaceKey, size: Int) {
        var pen = origin
        for glyph in run.glyphs {
            let x = pen + glyph.xOffset
            var pixel = x >> 6
            var phase = ((x & 63) * GlyphKey.phases + 32) >> 6
            if phase == GlyphKey.phases {
                pixel += 1
                phase = 0
            }
            let bitmap = self.bitmap(GlyphKey(face: face, size: size, glyph: glyph.id, phase: phase))
            let y = baseline - Int((Double(glyph.yOffset) / 64).rounded())
            mask.add(bitmap, x: pixel + bitmap.left, y: y - bitmap.top)
            pen += glyph.advance
        }
    }

    /// A glyph's bitmap from the cache, rendered on a miss.
    private func bitmap(_ key: GlyphKey) -> GlyphBitmap {
        if let cached = glyphs[key] {
            glyphCacheHits += 1
            return cached
        }
        glyphCacheMisses += 1
        let rendered = faces[key.face]!.render(glyph: key.glyph, size: key.size, phase: key.phase)
        glyphs[key] = rendered
        return rendered
    }
}
