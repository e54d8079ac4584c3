import Testing
@testable import SkeletonLayout

/// Labels, progress bars, pictures and roles in layout files: what they decode to, what they
/// resolve to, and the errors for what is wrong.
@Suite struct ContentNodeTests {
    @Test func aLabelDecodesWithItsDefaults() throws {
        let layout = try loadLayout(layoutText(root: #"{"kind": "label", "id": "status", "role": "message", "text": "Starting", "fontSize": 24, "skeletonable": false}"#))
        let label = try #require(layout.root.label)
        #expect(label.text == "Starting")
        #expect(label.fontSize == 24)
        #expect(label.alignment == .natural)
        #expect(label.lines == 1)
        #expect(label.font == nil)
        #expect(layout.root.role == .message)
    }

    @Test func pictureSourcesAreReadFromTheLayoutsDirectory() {
        var decoder = LayoutDecoder(baseDirectory: "/etc/skeletond/layouts")
        let document = try! JSONValue.parse(layoutText(root: #"{"kind": "image", "source": "logo.png", "contentMode": "center"}"#))
        let layout = decoder.decodeLayout(document, defaultName: "t")
        #expect(layout?.root.picture == PictureSpec(source: .file("/etc/skeletond/layouts/logo.png"), contentMode: .center))
        let bgrt = decoder.decodeLayout(try! JSONValue.parse(layoutText(root: #"{"kind": "image", "source": "bgrt"}"#)), defaultName: "t")
        #expect(bgrt?.root.picture?.source == .bgrt)
    }

    @Test func badContentKeysAreErrorsWithTheirPaths() {
        let issues = loadIssues(layoutText(root: #"""
            {"kind": "view", "children": [
              {"kind": "progress", "value": 1.5},
              {"kind": "progress", "value": "half"},
              {"kind": "label", "role": "progress", "id": "x"},
              {"kind": "label", "role": "message"},
              {"kind": "image", "contentMode": "center"},
              {"kind": "label", "text": 3},
              {"kind": "label", "role": "prompt", "id": "ask"}
            ]}
            """#)).map { "\($0.path): \($0.message)" }
        #expect(issues.contains { $0.hasPrefix("root.children[0].value: ") && $0.contains("1.5") }, "\(issues)")
        #expect(issues.contains("root.children[1].value: expected a number from 0 to 1 or \"indeterminate\", found a string"))
        #expect(issues.contains("root.children[2].role: role \"progress\" is for a progress node, not a label node"))
        #expect(issues.contains("root.children[3].role: a node with a role needs an \"id\": commands reach it by its id"))
        #expect(issues.contains("root.children[4].contentMode: a contentMode needs a \"source\""))
        #expect(issues.contains { $0.hasPrefix("root.children[5].text: expected a string") })
        #expect(issues.contains("root.children[6].role: role \"prompt\" is for a view node, not a label node"))
    }

    @Test func aViewWithThePromptRoleIsWhereQuestionsGo() throws {
        let layout = try loadLayout(layoutText(root: #"{"kind": "view", "children": [{"kind": "view", "id": "ask", "role": "prompt", "frame": [10, 20, 300, 100]}]}"#))
        #expect(layout.promptNodeID == "ask")
    }

    static let splash = layoutText(root: #"""
        {"kind": "view", "children": [
          {"kind": "label", "id": "title", "frame": [0, 0, 1000, 100], "text": "Hello", "skeletonable": false},
          {"kind": "label", "id": "status", "role": "message", "frame": [0, 100, 1000, 50], "text": "", "skeletonable": false},
          {"kind": "progress", "id": "bar", "frame": [100, 400, 800, 20], "skeletonable": false, "value": 0.25},
          {"kind": "label", "frame": [0, 200, 1000, 100], "lines": 3, "text": "shown as bars"}
        ]}
        """#)

    @Test func contentResolvesToSpritesAndABarWithCommandsContentOverTheLayouts() throws {
        let layout = try loadLayout(Self.splash)
        var resolver = LayoutResolver(layout: layout, outputSize: Size(width: 500, height: 250),
                                      content: LayoutContent(texts: ["status": "Installing"], values: ["bar": .indeterminate]))
        let resolved = resolver.resolve()
        let texts: [String] = resolved.items.compactMap {
            if case .sprite(let s) = $0, case .text(let run) = s.content { return run.text }
            return nil
        }
        #expect(texts == ["Hello", "Installing"])
        let bars: [ProgressItem] = resolved.items.compactMap { if case .progress(let p) = $0 { return p } else { return nil } }
        #expect(bars.count == 1)
        #expect(bars.first?.value == .indeterminate)
        #expect(bars.first?.rect == Rect(x: 50, y: 200, width: 400, height: 10))
        #expect(bars.first?.cornerRadius == 5)
        // The skeletonable label shows three text bars.
        #expect(resolved.skeletonShapes.count == 3)
        #expect(resolved.root.children[3].json["lines"] == .number(3))
        #expect(resolved.root.children[1].json["text"] == .string("Installing"))
    }

    @Test func contentChangesAreCheckedAgainstTheLayout() throws {
        let targets = ContentTargets(try loadLayout(Self.splash))
        #expect(targets.roles[.message] == ["status"])
        #expect(targets.roles[.progress] == ["bar"])
        #expect(targets.problem(with: LayoutContent(texts: ["status": "x"], values: ["bar": .fraction(0.5)])) == nil)
        #expect(targets.problem(with: LayoutContent(texts: ["bar": "x"])) == "node \"bar\" is a progress bar: it takes a value, not a text")
        #expect(targets.problem(with: LayoutContent(values: ["title": .fraction(1)])) == "node \"title\" is a label: it takes a text, not a value")
        #expect(targets.problem(with: LayoutContent(texts: ["nope": "x"])) == "no label node \"nope\" in the layout (its label nodes: \"status\", \"title\")")
    }
}
