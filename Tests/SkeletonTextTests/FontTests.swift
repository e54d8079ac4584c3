#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import SkeletonRender
import SkeletonSystem
@testable import SkeletonText

@Suite("Fonts and caches")
struct FontTests {
    let engine = TextEngine()

    @Test func boldHasMoreInkThanRegular() throws {
        let regular = Ink(try engine.render("Skeleton", style: TextStyle(size: 32), width: 300, height: 60))
        let bold = Ink(try engine.render("Skeleton", style: TextStyle(size: 32, weight: 700), width: 300, height: 60))
        #expect(Double(bold.total) > Double(regular.total) * 1.2)
        #expect(try engine.notes(for: TextStyle(size: 32, weight: 700)).isEmpty)
        // 500 is drawn regular, as asked closely enough; DejaVu Sans has no medium face.
        let medium = try engine.render("Skeleton", style: TextStyle(size: 32, weight: 500), width: 300, height: 60)
        #expect(Ink(medium).total == regular.total)
    }

    @Test func aWeightTheFontLacksIsSaidInNotes() throws {
        let math = dejaVuDirectory + "DejaVuMathTeXGyre.ttf"
        let notes = try engine.notes(for: TextStyle(fontPath: math, size: 20, weight: 800))
        #expect(notes.count == 1 && notes[0].contains("DejaVuMathTeXGyre-Bold.ttf"))
        let boldFile = dejaVuDirectory + "DejaVuSans-Bold.ttf"
        #expect(try engine.notes(for: TextStyle(fontPath: boldFile, size: 20, weight: 300)).first?.contains("bold face") == true)
        #expect(TextEngine.boldSibling(of: "/f/Inter-Regular.otf") == "/f/Inter-Bold.otf")
        #expect(TextEngine.boldSibling(of: "/f/DejaVuSans.ttf") == "/f/DejaVuSans-Bold.ttf")
    }

    @Test func aMissingFontFileIsAnErrorNamingIt() {
        let path = "/nonexistent/NoSuchFont.ttf"
        #expect {
            _ = try engine.render("x", style: TextStyle(fontPath: path, size: 20), width: 10, height: 10)
        } throws: { error in
            guard let error = error as? TextError else { return false }
            return error.fontPath == path && error.description.contains(path) && error.description.contains("no such file")
        }
    }

    @Test func aFileThatIsNotAFontIsAnErrorNamingIt() throws {
        let path = FileManager.default.temporaryDirectory.path + "/skeletond-not-a-font-\(ProcessInfo.processInfo.processIdentifier).ttf"
        try Data("this is not a font".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try engine.render("x", style: TextStyle(fontPath: path, size: 20), width: 10, height: 10)
        } throws: { error in
            guard let error = error as? TextError, case .notAFont = error.reason else { return false }
            return error.fontPath == path && error.description.contains(path)
        }
        let directory = TextError(fontPath: "/tmp", reason: .unreadable(.directory))
        #expect {
            _ = try engine.render("x", style: TextStyle(fontPath: "/tmp", size: 20), width: 10, height: 10)
        } throws: { ($0 as? TextError) == directory }
    }

    @Test func stylesOutOfRangeAreErrors() {
        let cases: [(TextStyle, TextError.Reason)] = [
            (TextStyle(size: 20, weight: 950), .noSuchWeight(950)),
            (TextStyle(size: 0), .badSize(0)),
            (TextStyle(size: 20, maxLines: 0), .badMaxLines(0)),
            (TextStyle(size: 20, lineHeight: -1), .badLineHeight(-1)),
        ]
        for (style, reason) in cases {
            #expect(throws: TextError(fontPath: TextEngine.defaultFontPath, reason: reason)) {
                _ = try engine.render("x", style: style, width: 10, height: 10)
            }
        }
    }

    @Test func aSecondRenderTakesEveryGlyphFromTheCache() throws {
        let style = TextStyle(size: 28)
        let first = try engine.render("Hello, world", style: style, width: 300, height: 50)
        let misses = engine.glyphCacheMisses, hits = engine.glyphCacheHits
        #expect(misses > 0)
        let second = try engine.render("Hello, world", style: style, width: 300, height: 50)
        #expect(engine.glyphCacheMisses == misses)
        #expect(engine.glyphCacheHits - hits == 12)
        #expect(same(first, second))
        // Another size is other bitmaps; the face is still the one.
        _ = try engine.render("Hello, world", style: TextStyle(size: 14), width: 300, height: 50)
        #expect(engine.glyphCacheMisses > misses)
        #expect(engine.faceCount == 1)
    }
}
