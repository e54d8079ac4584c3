import Testing
import SkeletonRender
@testable import SkeletonText

@Suite("Shaping")
struct ShapingTests {
    let engine = TextEngine()
    let style = TextStyle(size: 48, alignment: .left)

    @Test func kerningBringsAVCloser() throws {
        let together = try engine.advance(of: "AV", style: style)
        let apart = try engine.advance(of: "A", style: style) + engine.advance(of: "V", style: style)
        #expect(together < apart - 1)
        // In pixels: the V's ink ends further left than a V drawn after a lone A's advance.
        let pair = Ink(try engine.render("AV", style: style, width: 200, height: 80))
        let v = Ink(try engine.render("V", style: style, width: 200, height: 80))
        let a = try engine.advance(of: "A", style: style)
        #expect(Double(pair.maxX) < a + Double(v.maxX) - 1)
    }

    @Test func aCombiningAccentSitsAboveItsLetterWithoutAdvancing() throws {
        #expect(try engine.advance(of: "e\u{301}", style: style) == engine.advance(of: "e", style: style))
        let plain = Ink(try engine.render("e", style: style, width: 100, height: 100))
        let accented = Ink(try engine.render("e\u{301}", style: style, width: 100, height: 100))
        #expect(accented.minY < plain.minY - 5)
        #expect(accented.maxY == plain.maxY)
        // The accent is over the e, not beside it.
        #expect(accented.minX >= plain.minX - 1 && accented.maxX <= plain.maxX + 3)
    }

    @Test func arabicIsJoinedAndSetRightToLeft() throws {
        let word = "\u{0633}\u{0644}\u{0627}\u{0645}" // سلام
        let joined = try glyphIDs(word, engine: engine)
        let isolated = try word.unicodeScalars.flatMap { try glyphIDs(String($0), engine: engine) }
        #expect(!joined.isEmpty && !joined.contains(0))
        #expect(Set(joined) != Set(isolated), "joining forms replace the isolated letters")
        // Display order, even in a left-to-right layout: the first letter (seen) is the rightmost glyph.
        let scalars = word.unicodeScalars.map(\.value)
        let face = try engine.face(FaceKey(path: style.fontPath))
        let run = Shaper.shapeLine(scalars, range: 0..<scalars.count, levels: Bidi.levels(scalars, rightToLeft: false),
                                   font: face.shapingFont(size: 32 * 64))
        // Lam and alef become one glyph (a ligature: one cluster for two letters).
        #expect(run.glyphs.map(\.cluster) == [3, 1, 0])
    }

    @Test func arabicUnderNaturalAlignmentInARightToLeftLayoutIsRightAligned() throws {
        let rtl = TextStyle(size: 32, alignment: .natural, rightToLeft: true)
        let ink = Ink(try engine.render("\u{0645}\u{0631}\u{062D}\u{0628}\u{0627} \u{0628}\u{0643}", style: rtl, width: 400, height: 60))
        #expect(!ink.isEmpty)
        #expect(399 - ink.maxX <= 3)
        #expect(ink.minX > 200)
    }

    @Test func mixedDirectionsAreReorderedByTheBidiAlgorithm() throws {
        // "سلام 42 OK." in a right-to-left layout: the Arabic word rightmost, then the number and
        // the Latin word each left to right, the full stop at the far left (the paragraph's end).
        let text = "\u{0633}\u{0644}\u{0627}\u{0645} 42 OK."
        let scalars = text.unicodeScalars.map(\.value)
        let levels = Bidi.levels(scalars, rightToLeft: true)
        #expect(Bidi.visualRuns(levels: levels, range: 0..<scalars.count) == [
            BidiRun(range: 10..<11, rightToLeft: true), BidiRun(range: 8..<10, rightToLeft: false),
            BidiRun(range: 7..<8, rightToLeft: true), BidiRun(range: 5..<7, rightToLeft: false),
            BidiRun(range: 0..<5, rightToLeft: true),
        ])
        let face = try engine.face(FaceKey(path: style.fontPath))
        let clusters = Shaper.shapeLine(scalars, range: 0..<scalars.count, levels: levels, font: face.shapingFont(size: 32 * 64))
            .glyphs.map(\.cluster)
        #expect(clusters == [10, 8, 9, 7, 5, 6, 4, 3, 1, 0])
        // In pixels: the number at the left of the line reads "42", as it does alone.
        let line = try engine.render("\u{0633}\u{0644}\u{0627}\u{0645} 42", style: TextStyle(size: 32, rightToLeft: true), width: 300, height: 50)
        let digits = try engine.render("42", style: TextStyle(size: 32, alignment: .left), width: 300, height: 50)
        let number = Ink(digits), shift = Ink(line).minX - number.minX
        let same = (0..<50).allSatisfy { y in (0...number.maxX).allSatisfy { line[$0 + shift, y] == digits[$0, y] } }
        #expect(same, "the number at the left of the line is \"42\", not \"24\"")
    }
}
