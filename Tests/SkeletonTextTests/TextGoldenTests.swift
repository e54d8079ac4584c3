#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SkeletonPicture
import Testing
import SkeletonLayout
import SkeletonRender
import SkeletonText

/// Golden images of labels: each case rendered and composed over white must equal
/// Tests/Golden/text/NAME.png exactly. They pin Debian 12's fonts-dejavu-core, FreeType and
/// HarfBuzz (see the README there). Regenerate with
/// `SKELETOND_UPDATE_GOLDENS=1 swift test --filter TextGoldenTests`.
@Suite("Text golden images")
struct TextGoldenTests {
    static let goldenDirectory = packageRoot + "/Tests/Golden/text"
    static let failureDirectory = packageRoot + "/.build/golden-failures"
    static var updating: Bool { ProcessInfo.processInfo.environment["SKELETOND_UPDATE_GOLDENS"] == "1" }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var style: TextStyle
        var width: Int
        var height: Int
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "latin-wrapped", text: "AVA Wavy Tofu: caf\u{E9} na\u{EF}ve e\u{301}l\u{E8}ve \u{2014} updates are being installed, please wait",
             style: TextStyle(size: 22, color: Color(rgb: 0x202124), alignment: .center, maxLines: 3), width: 260, height: 90),
        Case(name: "arabic-rtl", text: "\u{062C}\u{0627}\u{0631}\u{064A} \u{062A}\u{062B}\u{0628}\u{064A}\u{062A} \u{0627}\u{0644}\u{062A}\u{062D}\u{062F}\u{064A}\u{062B}\u{0627}\u{062A} 42",
             style: TextStyle(size: 26, color: Color(rgb: 0x1A73E8), rightToLeft: true), width: 300, height: 50),
        Case(name: "bold-title", text: "Setting up",
             style: TextStyle(size: 40, weight: 700, color: Color(red: 0, green: 0, blue: 0, alpha: 180), alignment: .left), width: 240, height: 56),
    ]

    @Test("labels render as their golden images", arguments: cases)
    func golden(_ c: Case) throws {
        let actual = overWhite(try TextEngine().render(c.text, style: c.style, width: c.width, height: c.height))
        let goldenPath = Self.goldenDirectory + "/\(c.name).png"
        if Self.updating {
            try ImageFile.write(actual.canvas, to: goldenPath, format: .png)
            return
        }
        guard FileManager.default.fileExists(atPath: goldenPath) else {
            Issue.record("no golden image \(goldenPath): run SKELETOND_UPDATE_GOLDENS=1 swift test --filter TextGoldenTests, check and commit it")
            return
        }
        let expected = try ImageFile.readPNG(goldenPath)
        guard expected.width == actual.width, expected.height == actual.height else {
            let written = try Self.writeFailure(c.name, actual: actual, expected: nil)
            Issue.record("\(c.name) is \(actual.width)x\(actual.height), golden \(goldenPath) is \(expected.width)x\(expected.height); actual written to \(written.actual)")
            return
        }
        let changed = (0..<actual.height).flatMap { y in (0..<actual.width).filter { actual[$0, y] != expected[$0, y] }.map { ($0, y) } }
        if let (x, y) = changed.first {
            let written = try Self.writeFailure(c.name, actual: actual, expected: expected)
            Issue.record("""
                \(c.name) differs from \(goldenPath) in \(changed.count) pixels, first at (\(x), \(y)). \
                Actual image: \(written.actual); difference (red = changed): \(written.diff!). \
                Other fonts or FreeType/HarfBuzz versions than Debian 12's change these; \
                if the change is intended, regenerate with SKELETOND_UPDATE_GOLDENS=1.
                """)
        }
    }

    /// Writes the actual image and, beside a golden of the same size, a difference image
    /// (unchanged pixels faded to grey, changed ones red).
    static func writeFailure(_ name: String, actual: PixelBuffer, expected: PixelBuffer?) throws -> (actual: String, diff: String?) {
        try FileManager.default.createDirectory(atPath: failureDirectory, withIntermediateDirectories: true)
        let actualPath = failureDirectory + "/text-\(name)-actual.png"
        try ImageFile.write(actual.canvas, to: actualPath, format: .png)
        guard let expected else { return (actualPath, nil) }
        let diff = PixelBuffer(width: actual.width, height: actual.height)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual[x, y]
                let grey = 192 + (a & 0xFF) / 4
                diff[x, y] = a == expected[x, y] ? grey << 16 | grey << 8 | grey : 0xFF0000
            }
        }
        let diffPath = failureDirectory + "/text-\(name)-diff.png"
        try ImageFile.write(diff.canvas, to: diffPath, format: .png)
        return (actualPath, diffPath)
    }
}
