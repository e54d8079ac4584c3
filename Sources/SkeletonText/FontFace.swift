import CFreeType
import CHarfBuzz
import SkeletonSystem

/// One face of a font file, read once into memory and shared by FreeType (rasterizing,
/// `FT_New_Memory_Face`) and HarfBuzz (shaping, `hb_blob_create`, `hb_face_create`). A variable
/// font set to a weight is a face of its own (`FT_Set_Var_Design_Coordinates`,
/// `hb_font_set_variations`).
final class FontFace {
    /// Font files larger than this are refused (a CJK font is about 20 MB).
    static let fileLimit = 64 << 20

    let key: FaceKey
    /// FreeType's style flags: the face is bold (`FT_STYLE_FLAG_BOLD`).
    let isBold: Bool
    /// The range of the `wght` axis of a variable font; nil for other fonts.
    let weightAxis: ClosedRange<Double>?
    private let library: FontLibrary
    private let bytes: UnsafeMutableRawBufferPointer
    private let face: FT_Face
    private let hbFace: OpaquePointer
    /// HarfBuzz fonts by size in 1/64 pixel (`hb_font_create`, `hb_font_set_scale`).
    private var hbFonts: [Int: OpaquePointer] = [:]
    /// The size FreeType's face is set to (`FT_Set_Char_Size`), in 1/64 pixel.
    private var freeTypeSize: Int?

    /// Reads `key.path` and opens its first face, set to `key.variableWeight` when given.
    init(key: FaceKey, library: FontLibrary) throws(TextError) {
        let contents: [UInt8]
        switch SystemCalls.readRegularFile(key.path, limit: Self.fileLimit) {
        case .success(let read): contents = read
        case .failure(let error): throw TextError(fontPath: key.path, reason: .unreadable(error))
        }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(contents.count, 1), alignment: 16)
        contents.withUnsafeBytes { bytes.copyMemory(from: $0) }
        var opened: FT_Face?
        let error = FT_New_Memory_Face(library.handle, bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self),
                                       FT_Long(contents.count), 0, &opened)
        guard error == 0, let face = opened else {
            bytes.deallocate()
            throw TextError(fontPath: key.path, reason: .notAFont(freeTypeError: error))
        }
        self.key = key
        self.library = library
        self.bytes = bytes
        self.face = face
        isBold = face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        weightAxis = Self.weightAxis(of: face, library: library, setTo: key.variableWeight)
        let blob = hb_blob_create(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(contents.count),
                                  HB_MEMORY_MODE_READONLY, nil, nil)
        hbFace = hb_face_create(blob, 0)
        hb_blob_destroy(blob)
    }

    deinit {
        for font in hbFonts.values { hb_font_destroy(font) }
        hb_face_destroy(hbFace)
        FT_Done_Face(face)
        bytes.deallocate()
    }

    /// `wght` as an OpenType tag.
    static let weightTag: UInt32 = 0x7767_6874

    /// The `wght` axis's range (`FT_Get_MM_Var`), with the face set to `weight` on it
    /// (`FT_Set_Var_Design_Coordinates`, the other axes at their defaults) when given.
    private static func weightAxis(of face: FT_Face, library: FontLibrary, setTo weight: Double?) -> ClosedRange<Double>? {
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_MULTIPLE_MASTERS) != 0 else { return nil }
        var master: UnsafeMutablePointer<FT_MM_Var>?
        guard FT_Get_MM_Var(face, &master) == 0, let mm = master else { return nil }
        defer { FT_Done_MM_Var(library.handle, mm) }
        let axes = UnsafeBufferPointer(start: mm.pointee.axis, count: Int(mm.pointee.num_axis))
        guard let index = axes.firstIndex(where: { $0.tag == FT_ULong(weightTag) }) else { return nil }
        if let weight {
            var coordinates = axes.map { $0.def }
            coordinates[index] = FT_Fixed(weight * 65536)
            FT_Set_Var_Design_Coordinates(face, FT_UInt(coordinates.count), &coordinates)
        }
        return Double(axes[index].minimum) / 65536...Double(axes[index].maximum) / 65536
    }

    /// HarfBuzz's font at `size` (1/64 pixel): positions come out in 1/64 pixel, unhinted.
    func shapingFont(size: Int) -> OpaquePointer {
        if let font = hbFonts[size] { return font }
        let font = hb_font_create(hbFace)!
        hb_font_set_scale(font, Int32(size), Int32(size))
        if let weight = key.variableWeight {
            var variation = hb_variation_t(tag: Self.weightTag, value: Float(weight))
            hb_font_set_variations(font, &variation, 1)
        }
        hbFonts[size] = font
        return font
    }

    /// Ascender, descender and line gap at `size` (`hb_font_get_h_extents`).
    func metrics(size: Int) -> FontMetrics {
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(shapingFont(size: size), &extents)
        return FontMetrics(ascender: Double(extents.ascender) / 64, descender: Double(-extents.descender) / 64,
                           lineGap: Double(extents.line_gap) / 64)
    }

    /// Glyph `id` at `size` (1/64 pixel) with the pen `phase` quarter pixels right of a whole
    /// pixel, rendered anti-aliased: `FT_Set_Char_Size`, `FT_Set_Transform` (the phase),
    /// `FT_Load_Glyph` with light hinting, `FT_Render_Glyph` in `FT_RENDER_MODE_NORMAL`. A glyph
    /// FreeType cannot load draws nothing.
    func render(glyph id: UInt32, size: Int, phase: Int) -> GlyphBitmap {
        if freeTypeSize != size {
            guard FT_Set_Char_Size(face, 0, FT_F26Dot6(size), 72, 72) == 0 else { return .empty }
            freeTypeSize = size
        }
        var delta = FT_Vector(x: FT_Pos(phase * 64 / GlyphKey.phases), y: 0)
        FT_Set_Transform(face, nil, &delta)
        guard FT_Load_Glyph(face, id, skeleton_ft_load_target_light) == 0,
              FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL) == 0 else { return .empty }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, pitch >= width, let buffer = bitmap.buffer else { return .empty }
        var alpha = [UInt8](repeating: 0, count: width * height)
        alpha.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                (out.baseAddress! + row * width).update(from: buffer + row * pitch, count: width)
            }
        }
        return GlyphBitmap(left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), width: width, height: height, alpha: alpha)
    }
}
