import SkeletonLayout
import SkeletonPicture
import SkeletonRender
import SkeletonText

/// The one `SpriteSource` of the daemon and the tools: pictures through `PictureLoader`
/// (libpng, the firmware's BGRT logo) and texts through `TextEngine` (HarfBuzz, FreeType).
/// Every sprite is made once per box and kept while in use (`SpriteCache`); what cannot be made
/// is reported once through `report` and the renderer draws that node as a skeleton.
public final class ContentSprites: SpriteSource {
    private let pictures: PictureLoader
    private let text = TextEngine()
    private var made: SpriteCache<Key>
    private var reported: Set<SpriteError> = []
    /// Told each problem once (the daemon logs it; `validate` lists it).
    public var report: (SpriteError) -> Void

    /// Bytes of sprites no one holds any more kept for a later ask (a layout shown again).
    public static let spareBytes = 1 << 20

    private struct Key: Hashable {
        var content: SpriteContent
        var box: PixelRect
        var outputSize: Size
    }

    public init(bgrtDirectory: String = "/sys/firmware/acpi/bgrt", report: @escaping (SpriteError) -> Void = { _ in }) {
        self.pictures = PictureLoader(bgrtDirectory: bgrtDirectory)
        self.made = SpriteCache(spareBytes: Self.spareBytes)
        self.report = report
    }

    public func sprite(for item: SpriteItem, outputSize: Size) -> Result<Sprite, SpriteError>? { made(for: item, outputSize: outputSize) }

    /// The pixels for `item`, made now if they were not made before.
    public func made(for item: SpriteItem, outputSize: Size) -> Result<Sprite, SpriteError> {
        let box = Self.box(item.rect)
        let key = Key(content: item.content, box: box, outputSize: outputSize)
        made.beginRound()
        if let known = made.result(for: key) { return known }
        let result = make(item, box: box, outputSize: outputSize)
        made.keep(result, for: key)
        if case .failure(let error) = result, reported.insert(error).inserted { report(error) }
        return result
    }

    /// The pixels for `item`, made now and not kept (for a cache of the caller's own).
    public func makeAfresh(_ item: SpriteItem, outputSize: Size) -> Result<Sprite, SpriteError> {
        make(item, box: Self.box(item.rect), outputSize: outputSize)
    }

    /// A node's frame on whole pixels: its edges rounded, so that neighbours meet exactly.
    static func box(_ r: Rect) -> PixelRect {
        let x0 = Int(r.x.rounded()), y0 = Int(r.y.rounded())
        return PixelRect(x: x0, y: y0, width: max(0, Int(r.maxX.rounded()) - x0), height: max(0, Int(r.maxY.rounded()) - y0))
    }

    private func make(_ item: SpriteItem, box: PixelRect, outputSize: Size) -> Result<Sprite, SpriteError> {
        func failure(_ reason: String) -> Result<Sprite, SpriteError> { .failure(SpriteError(nodePath: item.nodePath, reason: reason)) }
        switch item.content {
        case .picture(let spec):
            do {
                switch spec.source {
                case .bgrt:
                    let place = try pictures.bgrtPlacement(outputWidth: outputSize.width, outputHeight: outputSize.height)
                    let pixels = try pictures.render(.bgrt, mode: .scaleToFill, width: place.width, height: place.height)
                    return .success(Sprite(pixels: pixels, x: place.x, y: place.y))
                case .file(let path):
                    guard !box.isEmpty else { return failure("the node's frame is empty on this output") }
                    let pixels = try pictures.render(.file(path), mode: spec.contentMode, width: box.width, height: box.height)
                    return .success(Sprite(pixels: pixels, x: box.x, y: box.y))
                }
            } catch {
                return failure(error.description)
            }
        case .text(let run):
            guard !box.isEmpty else { return failure("the node's frame is empty on this output") }
            let style = TextStyle(fontPath: run.font ?? TextEngine.defaultFontPath, size: run.pixelSize, weight: run.weight,
                                  color: run.color, alignment: run.alignment, rightToLeft: run.rightToLeft,
                                  maxLines: run.maxLines, lineHeight: run.lineHeight)
            do {
                let pixels = try text.render(run.text, style: style, width: box.width, height: box.height)
                return .success(Sprite(pixels: pixels, x: box.x, y: box.y))
            } catch {
                return failure(error.description)
            }
        }
    }
}
