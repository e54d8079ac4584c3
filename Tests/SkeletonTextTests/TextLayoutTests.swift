import Testing
import SkeletonLayout
import SkeletonRender
import SkeletonText

@Suite("Text layout")
struct TextLayoutTests {
    let engine = TextEngine()

    @Test func inkStaysInsideTheBoxAndIsPremultiplied() throws {
        let colour = Color(red: 200, green: 40, blue: 90, alpha: 200)
        let image = try engine.render("Skeleton", style: TextStyle(size: 40, color: colour, alignment: .left), width: 300, height: 100)
        #expect(image.width == 300 && image.height == 100)
        let ink = Ink(image)
        #expect(!ink.isEmpty)
        // One line of 40 px text, centred: ink well away from the top and bottom, starting at the left.
        #expect(ink.minX <= 4 && ink.maxX < 200)
        #expect(ink.minY > 20 && ink.maxY < 80)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y], a = p >> 24
                // Transparent is all zero; ink never exceeds its alpha (premultiplied) nor the colour's.
                #expect(a > 0 || p == 0)
                #expect((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a && a <= 200)
            }
        }
        // A pixel inside the stem of the "k" is fully covered: the colour at its own alpha, premultiplied.
        let opaque = (0..<image.height).flatMap { y in (0..<image.width).map { image[$0, y] } }.filter { $0 >> 24 == 200 }
        #expect(!opaque.isEmpty)
        #expect(opaque.allSatisfy { $0 == 200 << 24 | 157 << 16 | 31 << 8 | 71 })
    }

    @Test func textLargerThanTheBoxIsClippedToIt() throws {
        let image = try engine.render("W", style: TextStyle(size: 300, alignment: .center), width: 40, height: 30)
        let ink = Ink(image)
        #expect(!ink.isEmpty)
        #expect(ink.minX >= 0 && ink.maxX <= 39 && ink.minY >= 0 && ink.maxY <= 29)
    }

    @Test func emptyTextIsTransparent() throws {
        #expect(Ink(try engine.render("", style: TextStyle(size: 20), width: 50, height: 20)).isEmpty)
        #expect(Ink(try engine.render("   ", style: TextStyle(size: 20), width: 50, height: 20)).isEmpty)
    }

    @Test func wrapsAtSpacesToTheWidth() throws {
        let style = TextStyle(size: 20, alignment: .left, lineHeight: 40)
        let width = Int(try engine.advance(of: "aaa bbb", style: style).rounded(.up)) + 2
        #expect(try engine.advance(of: "aaa bbb ccc", style: style) > Double(width))
        let image = try engine.render("aaa bbb ccc ddd eee", style: style, width: width, height: 200)
        #expect(inkBands(image).count == 3)
        // Each line starts at the left edge: the words that begin lines are flush left.
        #expect(Ink(image).minX <= 3)
        // The same text with a hard newline after each word: five lines.
        let split = try engine.render("aaa\nbbb\r\nccc\rddd\u{2028}eee", style: style, width: 400, height: 200)
        #expect(inkBands(split).count == 5)
    }

    @Test func aWordWiderThanTheLineIsCutAtAClusterBoundary() throws {
        let style = TextStyle(size: 20, alignment: .left, lineHeight: 30)
        let word = "abcdefghijklmnopqrstuvwxyz"
        let image = try engine.render(word, style: style, width: 60, height: 300)
        #expect(inkBands(image).count >= 4)
        // Each line holds the longest rest of the word that fits: the same as those pieces on lines of their own.
        var pieces: [Substring] = [], rest = Substring(word)
        while !rest.isEmpty {
            let fits = try (1...rest.count).last { try engine.advance(of: String(rest.prefix($0)), style: style) <= 60 } ?? 1
            pieces.append(rest.prefix(fits))
            rest = rest.dropFirst(fits)
        }
        let expected = try engine.render(pieces.joined(separator: "\n"), style: style, width: 60, height: 300)
        #expect(same(image, expected), "the word cut as \(pieces)")
    }

    @Test func linesAreLimitedToMaxLinesAndToTheHeight() throws {
        let style = TextStyle(size: 20, alignment: .left, maxLines: 2, lineHeight: 30)
        let text = "one two three four five six seven eight nine ten"
        #expect(inkBands(try engine.render(text, style: style, width: 120, height: 300)).count == 2)
        var unlimited = style
        unlimited.maxLines = nil
        // 100 px hold three lines of 30 px.
        #expect(inkBands(try engine.render(text, style: unlimited, width: 120, height: 100)).count == 3)
    }

    @Test func theLastLineShownEndsWithAnEllipsis() throws {
        let style = TextStyle(size: 24, alignment: .left, maxLines: 1)
        // Room for "aaaa aaaa…": the third word is cut and the ellipsis follows the second.
        let roomy = Int(try engine.advance(of: "aaaa aaaa\u{2026}", style: style).rounded(.up)) + 1
        let cut = try engine.render("aaaa aaaa aaaa aaaa", style: style, width: roomy, height: 40)
        let expected = try engine.render("aaaa aaaa\u{2026}", style: style, width: roomy, height: 40)
        #expect(same(cut, expected))
        // Room for "aaaa aaaa" but not its ellipsis: letters give way to it.
        let tight = Int(try engine.advance(of: "aaaa aaaa", style: style).rounded(.up)) + 1
        let prefix = try (1...9).map { String("aaaa aaaa".prefix($0)) }
            .last { try engine.advance(of: $0 + "\u{2026}", style: style) <= Double(tight) }!
        #expect(prefix.count < 9)
        let shortened = try engine.render("aaaa aaaa aaaa", style: style, width: tight, height: 40)
        #expect(same(shortened, try engine.render(prefix + "\u{2026}", style: style, width: tight, height: 40)))
        // Every line but the last shown is drawn as it is; text cut at a hard newline gets the ellipsis too.
        let paragraphs = try engine.render("aaaa\nbbbb", style: style, width: 200, height: 40)
        #expect(same(paragraphs, try engine.render("aaaa\u{2026}", style: style, width: 200, height: 40)))
    }

    @Test(arguments: [TextAlignment.left, .center, .right])
    func linesAreAlignedInTheBox(alignment: TextAlignment) throws {
        let width = 400
        let ink = Ink(try engine.render("Booting", style: TextStyle(size: 30, alignment: alignment), width: width, height: 60))
        let left = ink.minX, right = width - 1 - ink.maxX
        switch alignment {
        case .left: #expect(left <= 3 && right > 200)
        case .right: #expect(right <= 3 && left > 200)
        default: #expect(abs(left - right) <= 3)
        }
    }

    @Test func naturalAlignmentFollowsTheLayoutsDirection() throws {
        let ltr = Ink(try engine.render("Booting", style: TextStyle(size: 30, alignment: .natural), width: 400, height: 60))
        let rtl = Ink(try engine.render("Booting", style: TextStyle(size: 30, alignment: .natural, rightToLeft: true),
                                         width: 400, height: 60))
        #expect(ltr.minX <= 3)
        #expect(399 - rtl.maxX <= 3)
    }

    @Test func theBlockIsCentredVertically() throws {
        let style = TextStyle(size: 20, alignment: .left, lineHeight: 30)
        let one = inkBands(try engine.render("Hx", style: style, width: 200, height: 200))
        let two = inkBands(try engine.render("Hx\nHx", style: style, width: 200, height: 200))
        #expect(one.count == 1 && two.count == 2)
        // Two lines sit half a line above and below where one line sits.
        #expect(abs((two[0].0 + 15) - one[0].0) <= 1)
        #expect(abs((two[1].0 - 15) - one[0].0) <= 1)
    }
}
