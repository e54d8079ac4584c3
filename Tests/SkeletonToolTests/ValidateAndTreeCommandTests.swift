#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
import Testing

@Suite("skeletond validate")
struct ValidateCommandTests {
    @Test func validFilesExitZeroSilently() throws {
        let scratch = try Scratch()
        var files = [try scratch.write("sample.json", sampleLayout)]
        let shipped = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/config/layouts")) ?? []
        files += shipped.filter { $0.hasSuffix(".json") }.sorted().map { packageRoot + "/config/layouts/" + $0 }
        let bench = packageRoot + "/benchmarks/scene-1080p.json"
        if FileManager.default.fileExists(atPath: bench) { files.append(bench) }
        let result = try scratch.skeletond(["validate"] + files)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty)
    }

    @Test func picturesThatCannotBeShownAreReportedWithTheFileAndTheNode() throws {
        let scratch = try Scratch()
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: URL(fileURLWithPath: scratch.path + "/short.png"))
        let file = try scratch.write("logos.json", #"""
            {"canvas": {"width": 100, "height": 100},
             "root": {"kind": "view", "skeletonable": false, "children": [
               {"kind": "image", "frame": [0, 0, 50, 50], "source": "missing.png"},
               {"kind": "image", "frame": [50, 0, 50, 50], "source": "short.png"}
             ]}}
            """#)
        let result = try scratch.skeletond(["validate", file])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init) + result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first { $0.hasPrefix(file + ": root.children[0]: ") && $0.contains(scratch.path + "/missing.png") } != nil, "\(lines)")
        #expect(lines.first { $0.hasPrefix(file + ": root.children[1]: ") && $0.contains(scratch.path + "/short.png") } != nil, "\(lines)")
    }

    @Test func everyErrorOfEveryFileAsFilePathMessage() throws {
        let scratch = try Scratch()
        let good = try scratch.write("good.json", sampleLayout)
        let first = try scratch.write("first.json", #"""
            {"canvas": {"width": 100, "height": 100, "scale": "fitt"},
             "root": {"kind": "view", "children": [
               {"kind": "image", "id": "a", "frame": [0, 0, 10]},
               {"kind": "image", "id": "a", "cornerRadius": -1}
             ]}}
            """#)
        let second = try scratch.write("second.json", #"""
            {"canvas": {"width": 100, "height": 100}, "appearance": {"tint": "cloudz"},
             "root": {"kind": "text", "frame": [0, 0, 100, 10], "lines": 2}}
            """#)
        let third = try scratch.write("third.json", #"""
            {"canvas": {"width": 100, "height": 100},
             "root": {"kind": "view", "children": [{"kind": "text", "frame": [0, 0, 100, 10], "lines": 2}]}}
            """#)
        let result = try scratch.skeletond(["validate", good, first, second, third])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [
            "\(first): canvas.scale: unknown value \"fitt\": expected one of \"fit\", \"fill\", \"stretch\", \"none\" (did you mean \"fit\"?)",
            "\(first): root.children[0].frame: expected [x, y, width, height] (4 values), found 3",
            "\(first): root.children[1].id: duplicate id \"a\": already used at root.children[0].id",
            "\(first): root.children[1].cornerRadius: -1 is out of range: expected a number from 0 to 4096",
            "\(second): appearance.tint: unknown colour \"cloudz\": expected one of the flat colour names (clouds, peterRiver, ...), #RRGGBB, #RRGGBBAA, rgb(r, g, b) or rgba(r, g, b, a)",
            "\(third): root.children[0].frame: text node is too small for one line: its height after padding is 10, a line needs 15 (lines is 2)",
        ])
    }

    @Test func unreadableFilesAndBadJSON() throws {
        let scratch = try Scratch()
        let broken = try scratch.write("broken.json", "{\n  \"canvas\": {\"width\": 10,, \"height\": 10}\n}")
        let result = try scratch.skeletond(["validate", "missing.json", broken, scratch.path])
        expectNoStackTrace(result)
        #expect(result.stderrLines == [
            "missing.json: cannot read the file: no such file",
            "\(broken): not valid JSON: line 2, column 26: expected a key in double quotes",
            "\(scratch.path): cannot read the file: it is a directory",
        ])
    }

    @Test func noFilesIsAUsageError() throws {
        let scratch = try Scratch()
        let result = try scratch.skeletond(["validate"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("Missing expected argument"), "\(result)")
    }

    /// Small files that resolve to hundreds of millions of shapes (they took the daemon to 8 GB)
    /// are refused with the path and the limit. That the refusal costs a few nodes' work, not
    /// one per shape, is `LimitTests`' to check (the census that refuses them counts its work).
    @Test func layoutsBeyondTheLimitsAreRefused() throws {
        let scratch = try Scratch()
        let grid = try scratch.write("grid.json", #"""
            {"canvas": {"width": 16384, "height": 16384},
             "root": {"kind": "view", "children": [{"kind": "grid", "itemSize": [1, 1], "items": "auto"}]}}
            """#)
        let tall = try scratch.write("tall.json", #"""
            {"canvas": {"width": 100, "height": 100},
             "root": {"kind": "view", "children": [{"kind": "text", "frame": [0, 0, 100, 1e9], "lines": "auto"}]}}
            """#)
        let thin = try scratch.write("thin.json", #"""
            {"canvas": {"width": 100, "height": 1000}, "appearance": {"textLineHeight": 0.0001, "textLineSpacing": 0},
             "root": {"kind": "text", "lines": "auto"}}
            """#)
        let result = try scratch.skeletond(["validate", grid, tall, thin])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderrLines == [
            "\(grid): root.children[0]: this grid resolves to 268435456 items; the limit is 4096 items per grid",
            "\(tall): root.children[0]: this text node resolves to 40000000 lines; the limit is 4096 lines per text node",
            "\(thin): root: this text node resolves to 10000000 lines; the limit is 4096 lines per text node",
        ])
    }
}

@Suite("skeletond tree")
struct TreeCommandTests {
    func parse(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any])
    }

    func numbers(_ value: Any?) -> [Double]? { (value as? [Any])?.compactMap { ($0 as? NSNumber)?.doubleValue } }

    static let layout = #"""
        {"name": "tree", "canvas": {"width": 200, "height": 100},
         "root": {"kind": "view", "id": "root", "children": [
           {"kind": "view", "id": "header", "frame": [0, 0, "100%", 20], "skeletonable": false, "background": "#2C3E50"},
           {"kind": "image", "id": "avatar", "frame": [10, 30, 40, 40], "shape": "circle"},
           {"kind": "text", "id": "bio", "frame": [60, 30, "fill", 60], "lines": "auto"}
         ]}}
        """#

    @Test func printsTheResolvedTreeInOutputPixels() throws {
        let scratch = try Scratch()
        let file = try scratch.write("tree.json", Self.layout)
        let result = try scratch.skeletond(["tree", file])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let document = try parse(result.stdout)
        #expect(document["layout"] as? String == "tree")
        #expect(numbers(document["output"]) == [200, 100])
        let root = try #require(document["root"] as? [String: Any])
        #expect(root["kind"] as? String == "view")
        #expect(root["id"] as? String == "root")
        #expect(root["skeletonable"] as? Bool == true)
        #expect(numbers(root["frame"]) == [0, 0, 200, 100])
        let children = try #require(root["children"] as? [[String: Any]])
        #expect(children.map { $0["id"] as? String } == ["header", "avatar", "bio"])
        #expect(children.map { $0["kind"] as? String } == ["view", "image", "text"])
        #expect(children.map { $0["skeletonable"] as? Bool } == [false, true, true])
        #expect(children.map { $0["skeleton"] as? Bool } == [false, true, true])
        #expect(children.map { numbers($0["frame"]) ?? [] } == [[0, 0, 200, 20], [10, 30, 40, 40], [60, 30, 140, 60]])
        #expect(children.allSatisfy { ($0["children"] as? [Any])?.isEmpty == true })
        #expect((children[2]["lines"] as? NSNumber)?.intValue == 2)
    }

    @Test func framesFollowTheOutputSize() throws {
        let scratch = try Scratch()
        let file = try scratch.write("tree.json", Self.layout)
        let result = try scratch.skeletond(["tree", file, "--size", "400x400"])
        #expect(result.status == 0, "\(result)")
        let document = try parse(result.stdout)
        #expect(numbers(document["output"]) == [400, 400])
        let root = try #require(document["root"] as? [String: Any])
        #expect(numbers(root["frame"]) == [0, 100, 400, 200])
        let children = try #require(root["children"] as? [[String: Any]])
        #expect(numbers(children[1]["frame"]) == [20, 160, 80, 80])
        #expect(numbers(children[2]["frame"]) == [120, 160, 280, 120])
    }

    @Test func errorsNameTheFile() throws {
        let scratch = try Scratch()
        let missing = try scratch.skeletond(["tree", "gone.json"])
        expectNoStackTrace(missing)
        #expect(missing.stderrLines == ["gone.json: cannot read the file: no such file"])
        #expect(missing.stdout.isEmpty)
        let file = try scratch.write("bad.json", #"{"canvas": {"width": 10, "height": 10}, "root": {"kind": "view", "frame": ["fill", 0, 1, 1]}}"#)
        let bad = try scratch.skeletond(["tree", file])
        expectNoStackTrace(bad)
        #expect(bad.stderrLines == ["\(file): root.frame[0]: \"fill\" is only for a width or a height: expected a number or \"N%\""])
    }
}
