import SkeletonLayout
import SkeletonRender
@testable import SkeletonText

let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3) // Tests/SkeletonTextTests/TextTestSupport.swift
    return parts.joined(separator: "/")
}()

let dejaVuDirectory = "/usr/share/fonts/truetype/dejavu/"

func alpha(_ pixel: UInt32) -> Int { Int(pixel >> 24) }

/// What a rendered label holds: the pixels with ink, their bounds and the sum of their alpha.
struct Ink {
    var pixels = 0
    var total = 0
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min

    init(_ image: PixelBuffer) {
        for y in 0..<image.height {
            for x in 0..<image.width where alpha(image[x, y]) > 0 {
                pixels += 1
                total += alpha(image[x, y])
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
    }

    var isEmpty: Bool { pixels == 0 }
    var width: Int { maxX - minX + 1 }
}

/// The bands of rows with ink, top to bottom, as (first row, last row): one per line of text
/// when lines are spaced apart.
func inkBands(_ image: PixelBuffer) -> [(Int, Int)] {
    var bands: [(Int, Int)] = []
    var start: Int?
    for y in 0..<image.height {
        let inked = (0..<image.width).contains { alpha(image[$0, y]) > 0 }
        if inked && start == nil { start = y }
        if !inked, let s = start {
            bands.append((s, y - 1))
            start = nil
        }
    }
    if let s = start { bands.append((s, image.height - 1)) }
    return bands
}

/// The label composed over opaque white, as XRGB8888: how a golden image is stored.
func overWhite(_ image: PixelBuffer) -> PixelBuffer {
    let out = PixelBuffer(width: image.width, height: image.height, fill: 0xFFFFFF)
    for y in 0..<image.height {
        for x in 0..<image.width {
            let p = image[x, y], a = p >> 24
            func channel(_ shift: UInt32) -> UInt32 { ((p >> shift) & 0xFF) + 255 - a }
            out[x, y] = channel(16) << 16 | channel(8) << 8 | channel(0)
        }
    }
    return out
}

/// The glyph ids HarfBuzz gives `text` in DejaVu Sans at 32 px.
func glyphIDs(_ text: String, engine: TextEngine) throws -> [UInt32] {
    let style = TextStyle(size: 32)
    let face = try engine.face(FaceKey(path: style.fontPath))
    let scalars = text.unicodeScalars.map(\.value)
    let levels = Bidi.levels(scalars, rightToLeft: false)
    return Shaper.shapeLine(scalars, range: 0..<scalars.count, levels: levels, font: face.shapingFont(size: 32 * 64)).glyphs.map(\.id)
}

/// Whether two images hold the same pixels (a Bool, so a failure does not print them all).
func same(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool { a.width == b.width && a.height == b.height && a.pixels == b.pixels }
