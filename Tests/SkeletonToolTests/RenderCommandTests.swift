#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import SkeletonPicture
import Foundation
import Testing
import SkeletonDisplay
import SkeletonRender

/// 200x100, white, one 100x60 block at (20, 20): a sliding gradient, left to right, 1.5 s.
let sampleLayout = #"""
{"name": "sample", "canvas": {"width": 200, "height": 100, "background": "#FFFFFF"},
 "presentation": {"style": "gradient", "animated": true, "animation": {"direction": "leftRight"}},
 "root": {"kind": "view", "children": [{"kind": "image", "id": "block", "frame": [20, 20, 100, 60]}]}}
"""#

let clouds: UInt32 = 0xECF0F1
let cloudsComplement: UInt32 = 0xDEE2E3

/// Seconds at which the default sliding (1.5 s, ease-in) reaches eased progress 0.5.
let halfwayTime: Double = {
    var low = 0.0, high = 1.0
    for _ in 0..<100 {
        let mid = (low + high) / 2
        if TimingCurve(.easeIn)(mid) < 0.5 { low = mid } else { high = mid }
    }
    return low * 1.5
}()

@Suite("skeletond render")
struct RenderCommandTests {
    @Test func writesAPNGOfTheCanvasSize() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        let result = try scratch.skeletond(["render", layout, "--out", "out.png"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty)
        let image = try scratch.png("out.png")
        #expect(image.width == 200 && image.height == 100)
        // At t = 0 the sliding band has not entered: the block is all base colour.
        for (x, y) in [(20, 20), (70, 50), (119, 79)] { expectPixel(image, x, y, clouds) }
        for (x, y) in [(19, 20), (120, 50), (70, 80), (0, 0), (199, 99)] { expectPixel(image, x, y, 0xFFFFFF) }
    }

    @Test func sizeScalesTheCanvas() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        #expect(try scratch.skeletond(["render", layout, "--out", "big.png", "--size", "400x400"]).status == 0)
        let image = try scratch.png("big.png")
        #expect(image.width == 400 && image.height == 400)
        // fit: scale 2, letterboxed vertically by 100 pixels.
        expectPixel(image, 40, 140, clouds)
        expectPixel(image, 239, 259, clouds)
        expectPixel(image, 39, 140, 0xFFFFFF)
        expectPixel(image, 240, 259, 0xFFFFFF)
        expectPixel(image, 100, 139, 0xFFFFFF)
    }

    @Test func atMovesTheAnimationClock() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        #expect(try scratch.skeletond(["render", layout, "--out", "half.png", "--at", String(halfwayTime)]).status == 0)
        let image = try scratch.png("half.png")
        // Eased progress 0.5: the complement peak at the block's middle column, base at its edges.
        expectPixel(image, 70, 50, cloudsComplement, tolerance: 1)
        expectPixel(image, 20, 50, clouds, tolerance: 1)
        expectPixel(image, 119, 50, clouds, tolerance: 1)
        #expect(image[70, 21] == image[70, 78], "a left-right sweep is the same down a column")
        // A full cycle later it is the same picture.
        #expect(try scratch.skeletond(["render", layout, "--out", "later.png", "--at", String(halfwayTime + 1.5)]).status == 0)
        #expect(try scratch.png("later.png").pixels == image.pixels)
    }

    @Test func directionChangesTheSweep() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        let result = try scratch.skeletond(["render", layout, "--out", "tb.png", "--at", String(halfwayTime), "--direction", "topBottom"])
        #expect(result.status == 0, "\(result)")
        let image = try scratch.png("tb.png")
        // Peak at the middle row (y = 49.5 ... 50.5 around 50), the same along the row.
        expectPixel(image, 25, 50, cloudsComplement, tolerance: 1)
        expectPixel(image, 25, 20, clouds, tolerance: 1)
        #expect(image[21, 50] == image[118, 50])
    }

    @Test func styleSolidMakesAPulse() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        // Solid and animated is the pulse: the complement after 1 s, everywhere in the block.
        #expect(try scratch.skeletond(["render", layout, "--out", "pulse.png", "--style", "solid", "--at", "1"]).status == 0)
        let pulse = try scratch.png("pulse.png")
        for (x, y) in [(20, 20), (70, 50), (119, 79)] { expectPixel(pulse, x, y, cloudsComplement) }
        // Not animated: the tint.
        #expect(try scratch.skeletond(["render", layout, "--out", "solid.png", "--style", "solid", "--no-animated", "--at", "1"]).status == 0)
        let solid = try scratch.png("solid.png")
        for (x, y) in [(20, 20), (70, 50), (119, 79)] { expectPixel(solid, x, y, clouds) }
        // The static gradient: base at the top row, complement in the middle.
        #expect(try scratch.skeletond(["render", layout, "--out", "grad.png", "--no-animated", "--at", "1"]).status == 0)
        let gradient = try scratch.png("grad.png")
        expectPixel(gradient, 70, 20, clouds, tolerance: 1)
        expectPixel(gradient, 70, 50, cloudsComplement, tolerance: 1)
    }

    @Test func tintAndScheme() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        #expect(try scratch.skeletond(["render", layout, "--out", "tint.png", "--tint", "peterRiver"]).status == 0)
        expectPixel(try scratch.png("tint.png"), 70, 50, 0x3498DB)
        #expect(try scratch.skeletond(["render", layout, "--out", "hex.png", "--tint", "#102030"]).status == 0)
        expectPixel(try scratch.png("hex.png"), 70, 50, 0x102030)
        #expect(try scratch.skeletond(["render", layout, "--out", "rgb.png", "--tint", "rgb(1, 2, 3)"]).status == 0)
        expectPixel(try scratch.png("rgb.png"), 70, 50, 0x010203)
        #expect(try scratch.skeletond(["render", layout, "--out", "dark.png", "--scheme", "dark"]).status == 0)
        let dark = try scratch.png("dark.png")
        expectPixel(dark, 70, 50, 0x1C2325)
        expectPixel(dark, 5, 5, 0xFFFFFF) // the canvas background is the layout's
        // Dark pulse at 1 s: darkClouds' complement.
        #expect(try scratch.skeletond(["render", layout, "--out", "darkpulse.png", "--scheme", "dark", "--style", "solid", "--at", "1"]).status == 0)
        expectPixel(try scratch.png("darkpulse.png"), 70, 50, 0x262F32)
    }

    /// The options skeletonctl has too: the animation's parameters and the gradient.
    @Test func animationAndGradientOptions() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        #expect(try scratch.skeletond(["render", layout, "--out", "half.png", "--at", String(halfwayTime)]).status == 0)
        let result = try scratch.skeletond(["render", layout, "--out", "slow.png", "--duration", "3", "--at", String(halfwayTime * 2)])
        #expect(result.status == 0, "\(result)")
        #expect(try scratch.png("slow.png").pixels == scratch.png("half.png").pixels, "twice the duration: the same frame at twice the time")
        #expect(try scratch.skeletond(["render", layout, "--out", "start.png"]).status == 0)
        #expect(try scratch.skeletond(["render", layout, "--out", "paused.png", "--pause", "1", "--at", String(1.5 + 0.5)]).status == 0)
        #expect(try scratch.png("paused.png").pixels == scratch.png("start.png").pixels, "resting between sweeps")
        #expect(try scratch.skeletond(["render", layout, "--out", "still.png", "--reduced-motion", "--at", String(halfwayTime)]).status == 0)
        // No movement: the static gradient, as with --no-animated (complement in the middle).
        expectPixel(try scratch.png("still.png"), 70, 50, cloudsComplement, tolerance: 1)
        let gradient = try scratch.skeletond(["render", layout, "--out", "g.png", "--no-animated", "--gradient", "#000000,rgb(0, 0, 255)"])
        #expect(gradient.status == 0, "\(gradient)")
        let image = try scratch.png("g.png")
        // The top row's centre lies half a pixel into the gradient: 255 / 30 / 2 off black.
        expectPixel(image, 70, 20, 0x000000, tolerance: 5)
        expectPixel(image, 70, 50, 0x0000FF, tolerance: 5)
    }

    @Test func ppmOutput() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        #expect(try scratch.skeletond(["render", layout, "--out", "out.ppm"]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scratch.file("out.ppm"))))
        let header = Array("P6\n200 100\n255\n".utf8)
        #expect(Array(bytes.prefix(header.count)) == header)
        #expect(bytes.count == header.count + 200 * 100 * 3)
        let offset = header.count + (50 * 200 + 70) * 3
        #expect(Array(bytes[offset..<offset + 3]) == [0xEC, 0xF0, 0xF1])
    }

    @Test func unknownOutputExtension() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        let result = try scratch.skeletond(["render", layout, "--out", "out.jpg"])
        expectNoStackTrace(result)
        #expect(result.stderrLines == ["out.jpg: unsupported output format: the file name must end in .png or .ppm"])
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.jpg")))
    }

    @Test func missingLayoutFile() throws {
        let scratch = try Scratch()
        let result = try scratch.skeletond(["render", "no-such-layout.json", "--out", "out.png"])
        expectNoStackTrace(result)
        #expect(result.stderrLines == ["no-such-layout.json: cannot read the file: no such file"])
        #expect(!FileManager.default.fileExists(atPath: scratch.file("out.png")))
    }

    @Test func invalidLayoutIsReportedNotRendered() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("bad.json", #"{"canvas": {"width": 10, "height": 10}, "root": {"kind": "vew"}}"#)
        let result = try scratch.skeletond(["render", layout, "--out", "out.png"])
        expectNoStackTrace(result)
        #expect(result.stderrLines == [
            "\(layout): root.kind: unknown value \"vew\": expected one of \"view\", \"text\", \"image\", \"label\", \"progress\", \"list\", \"grid\" (did you mean \"view\"?)",
        ])
    }

    @Test func unwritableOutput() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        let result = try scratch.skeletond(["render", layout, "--out", "no/such/dir/out.png"])
        expectNoStackTrace(result)
        #expect(result.stderr.hasPrefix("no/such/dir/out.png: cannot write the image"))
    }

    @Test func badOptionValues() throws {
        let scratch = try Scratch()
        let layout = try scratch.write("sample.json", sampleLayout)
        for (option, value) in [("--tint", "cloudz"), ("--size", "12by4"), ("--style", "shiny"), ("--scheme", "dim"),
                                ("--direction", "up"), ("--at", "soon"), ("--duration", "0"),
                                ("--gradient", "clouds,nope"), ("--timing", "slow"), ("--space", "world")] {
            let result = try scratch.skeletond(["render", layout, "--out", "out.png", option, value])
            #expect(result.status != 0, "\(option) \(value) must fail")
            #expect(result.stderr.contains(option) || result.stderr.contains(value), "\(option) \(value): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
        }
    }

    @Test("shipped layouts render through the CLI exactly as their golden images", arguments: ["default", "feed"])
    func cliMatchesGolden(name: String) throws {
        let layout = packageRoot + "/config/layouts/\(name).json"
        let golden = packageRoot + "/Tests/Golden/\(name)-0.6.png"
        try #require(FileManager.default.fileExists(atPath: layout), "no shipped layout \(layout)")
        try #require(FileManager.default.fileExists(atPath: golden), "no golden image \(golden)")
        let scratch = try Scratch()
        #expect(try scratch.skeletond(["render", layout, "--out", "out.png", "--at", "0.6"]).status == 0)
        let expected = try ImageFile.readPNG(golden)
        #expect(try scratch.png("out.png").pixels == expected.pixels)
    }
}
