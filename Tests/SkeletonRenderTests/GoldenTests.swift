#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SkeletonPicture
import SkeletonContent
import Testing
import SkeletonDisplay
import SkeletonLayout
@testable import SkeletonRender

/// Golden images of the shipped layouts: config/layouts/NAME.json rendered at its canvas size
/// with its own presentation at t = 0 and t = 0.6 must equal Tests/Golden/NAME-T.png exactly.
/// Regenerate with `SKELETOND_UPDATE_GOLDENS=1 swift test --filter GoldenTests`.
@Suite("Golden images")
struct GoldenTests {
    static let layoutsDirectory = packageRoot + "/config/layouts"
    static let goldenDirectory = packageRoot + "/Tests/Golden"
    static let failureDirectory = packageRoot + "/.build/golden-failures"
    static let times: [(Double, String)] = [(0, "0"), (0.6, "0.6")]
    static var updating: Bool { ProcessInfo.processInfo.environment["SKELETOND_UPDATE_GOLDENS"] == "1" }

    /// The shipped layouts' file names without .json, sorted.
    static var layoutNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: layoutsDirectory)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test("shipped layouts render as their golden images", arguments: layoutNames)
    func golden(name: String) throws {
        let path = Self.layoutsDirectory + "/" + name + ".json"
        let layout: Layout
        switch LayoutLoader.load(path: path) {
        case .success(let l): layout = l
        case .failure(let error):
            Issue.record("shipped layout does not load:\n\(error)")
            return
        }
        for (time, label) in Self.times {
            let renderer = FrameRenderer(layout: layout, sprites: ContentSprites())
            let actual = PixelBuffer(size: renderer.layout.outputSize)
            renderer.renderFull(at: time, into: actual.canvas)
            let goldenPath = Self.goldenDirectory + "/\(name)-\(label).png"
            if Self.updating {
                try FileManager.default.createDirectory(atPath: Self.goldenDirectory, withIntermediateDirectories: true)
                try ImageFile.write(actual.canvas, to: goldenPath, format: .png)
                continue
            }
            guard FileManager.default.fileExists(atPath: goldenPath) else {
                Issue.record("no golden image \(goldenPath): run SKELETOND_UPDATE_GOLDENS=1 swift test --filter GoldenTests, check and commit it")
                continue
            }
            let expected = try ImageFile.readPNG(goldenPath)
            guard expected.width == actual.width, expected.height == actual.height else {
                let written = try Self.writeFailure(name: name, label: label, actual: actual, expected: nil)
                Issue.record("\(name) at \(label) s is \(actual.width)x\(actual.height), golden \(goldenPath) is \(expected.width)x\(expected.height); actual written to \(written.actual)")
                continue
            }
            if let d = firstDifference(actual, expected) {
                let written = try Self.writeFailure(name: name, label: label, actual: actual, expected: expected)
                Issue.record("""
                    \(name) at \(label) s differs from \(goldenPath) in \(differenceCount(actual, expected)) pixels, first at \
                    (\(d.x), \(d.y)): \(hex(actual[d.x, d.y])) instead of \(hex(expected[d.x, d.y])). \
                    Actual image: \(written.actual); difference (red = changed): \(written.diff!). \
                    If the change is intended, regenerate with SKELETOND_UPDATE_GOLDENS=1.
                    """)
            }
        }
    }

    @Test func everyGoldenImageBelongsToAShippedLayout() throws {
        let names = Set(Self.layoutNames)
        let goldens = ((try? FileManager.default.contentsOfDirectory(atPath: Self.goldenDirectory)) ?? []).filter { $0.hasSuffix(".png") }
        for file in goldens {
            let stem = String(file.dropLast(4))
            let owner = Self.times.map { "-" + $0.1 }.first { stem.hasSuffix($0) }.map { String(stem.dropLast($0.count)) }
            #expect(owner.map(names.contains) == true, "Tests/Golden/\(file) belongs to no layout in config/layouts: remove it")
        }
    }

    /// Writes the actual image and, when there is a golden of the same size, a difference image
    /// (unchanged pixels faded to grey, changed ones red).
    static func writeFailure(name: String, label: String, actual: PixelBuffer,
                             expected: PixelBuffer?) throws -> (actual: String, diff: String?) {
        try FileManager.default.createDirectory(atPath: failureDirectory, withIntermediateDirectories: true)
        let actualPath = failureDirectory + "/\(name)-\(label)-actual.png"
        try ImageFile.write(actual.canvas, to: actualPath, format: .png)
        guard let expected else { return (actualPath, nil) }
        let diff = PixelBuffer(width: actual.width, height: actual.height)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let a = actual[x, y], e = expected[x, y]
                if a == e {
                    let c = channels(a)
                    let grey = UInt32(192 + (c[0] * 299 + c[1] * 587 + c[2] * 114) / 1000 / 4)
                    diff[x, y] = grey << 16 | grey << 8 | grey
                } else {
                    diff[x, y] = 0xFF0000
                }
            }
        }
        let diffPath = failureDirectory + "/\(name)-\(label)-diff.png"
        try ImageFile.write(diff.canvas, to: diffPath, format: .png)
        return (actualPath, diffPath)
    }
}

@Suite("Image files")
struct ImageFileTests {
    @Test func pngOfARenderedLayoutRoundTrips() throws {
        let image = try render(layoutJSON(width: 120, height: 80, extra: #""presentation": {"style": "gradient", "animated": true}"#,
                                          children: [#"{"kind": "image", "frame": [10.5, 10.5, 60, 60], "shape": "circle"}"#]), at: 0.8)
        let path = FileManager.default.temporaryDirectory.path + "/skeletond-roundtrip-\(ProcessInfo.processInfo.processIdentifier).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ImageFile.write(image.canvas, to: path, format: .png)
        let decoded = try ImageFile.readPNG(path)
        #expect(firstDifference(decoded, image) == nil)
    }
}
