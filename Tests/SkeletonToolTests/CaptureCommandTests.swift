import Foundation
import Testing

private let hasChromium = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")

/// `skeletond capture` as a person runs it, with the real headless Chromium: a layout that
/// validates and is the same for the same page, and for bad input a clear error, exit 1 and no
/// file written.
@Suite(.serialized, .enabled(if: hasChromium, "needs Debian's chromium (make test installs it)"))
struct CaptureCommandTests {
    static let pages = packageRoot + "/Tests/capture/pages"

    @Test func aPageBecomesALayoutThatValidatesTheSameEachTime() throws {
        let scratch = try Scratch()
        let first = try scratch.skeletond(["capture", Self.pages + "/feed.html", "--size", "800x600", "--out", scratch.file("feed.json")])
        #expect(first.status == 0, "\(first)")
        // Readable by a kiosk's own user, whose skeleton window loads it from /etc/skeletond/layouts.
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: scratch.file("feed.json"))[.posixPermissions] as? Int)
        #expect(mode & 0o044 == 0o044, "mode \(String(mode, radix: 8))")
        let validated = try scratch.skeletond(["validate", scratch.file("feed.json")])
        #expect(validated.status == 0, "\(validated)")
        let again = try scratch.skeletond(["capture", Self.pages + "/feed.html", "--size", "800x600"])
        #expect(again.status == 0)
        #expect(again.stdout == (try String(contentsOfFile: scratch.file("feed.json"), encoding: .utf8)), "stable: the same page, the same file")
        let text = again.stdout
        #expect(text.contains(#""kind": "list""#), "the posts are one list")
        #expect(text.contains(#""shape": "circle""#), "round avatars are circles")
        #expect(text.contains(#""id": "title""#), "element ids are kept")
    }

    @Test func thePageSteersItWithAttributesAndDirection() throws {
        let scratch = try Scratch()
        let form = try scratch.skeletond(["capture", Self.pages + "/form.html", "--size", "800x600"])
        #expect(form.status == 0, "\(form)")
        #expect(form.stdout.contains(#""hiddenWhenSkeletonActive": true"#), "data-skeleton=\"hide\"")
        #expect(form.stdout.contains(#""lines": 2"#))
        let fixed = try scratch.skeletond(["capture", Self.pages + "/fixed-header.html", "--size", "800x600"])
        #expect(fixed.stdout.contains(##"{"kind": "view", "id": "nav", "frame": [0, 0, "100%", 60], "background": "#C0392B", "skeletonable": false}"##),
                "the fixed bar stays in its colour: \(fixed.stdout)")
        let rtl = try scratch.skeletond(["capture", Self.pages + "/rtl.html", "--size", "800x600"])
        #expect(rtl.stdout.contains(#""direction": "rtl""#))
    }

    @Test func boxesPaintedByCSSAloneAndRepeatedSiblingsBecomeShapesListsAndGrids() throws {
        let scratch = try Scratch()
        func capture(_ page: String, _ size: String = "800x600", _ options: [String] = []) throws -> String {
            let result = try scratch.skeletond(["capture", Self.pages + "/\(page).html", "--size", size] + options)
            #expect(result.status == 0, "\(result)")
            return result.stdout
        }
        let news = try capture("rtl-news")
        #expect(news.contains(#""kind": "list", "frame": [20, 72, 760, 440], "rowHeight": 110, "rows": 4"#), "the four articles are one list: \(news)")
        #expect(news.contains(#"{"kind": "view", "frame": [708, 0, 52, 52], "shape": "circle"}"#), "avatars painted by their background alone")

        let shapes = try capture("css-shapes")
        #expect(shapes.contains(#""itemSize": [64, 64], "items": 5"#) && shapes.contains(#"{"kind": "view", "frame": [0, 0, "100%", "100%"], "shape": "circle"}"#),
                "five round avatars, one with a border only: \(shapes)")
        #expect(shapes.contains(#"{"kind": "view", "frame": [24, 145, 752, 2], "cornerRadius": 0}"#), "the rule")
        #expect(shapes.contains(#""itemSize": [120, 72], "items": 4"#), "the tiles, one with a shadow only")
        #expect(shapes.contains(#""itemSize": [30, 20], "items": 4"#), "the chips, one with a border only")
        #expect(shapes.contains(#"{"kind": "view", "frame": [2, 6, 9, 9], "shape": "circle"}"#), "the ::before bullets, in the list's row")
        #expect(shapes.contains(#""rows": 3"#))
        #expect(shapes.contains(#", 10, 10], "cornerRadius": 0}"#), "the ::after square beside its text")

        #expect(try capture("table").contains(#""rowHeight": 39, "rows": "#), "the table's rows are a list")
        #expect(try capture("cards").contains(#""itemSize": [243, 220], "items": 6"#), "the cards are one grid")
        #expect(try capture("responsive").contains(#""rowHeight": 74, "rows": 6"#), "narrow: the dishes in a list")
        #expect(try capture("responsive", "1280x720").contains(#""itemSize": [303, 190], "items": 6"#), "wide: the dishes in a grid")
        #expect(!(try capture("late-content")).contains(#""kind": "list""#), "the orders arrive after the load event")
        #expect(try capture("late-content", "800x600", ["--wait-for", "#orders[data-loaded]"]).contains(#""rowHeight": 70, "rows": 5"#),
                "waited for, the orders are one list")
    }

    @Test func aPageThatCannotBeCapturedIsAnErrorAndNoFile() throws {
        let scratch = try Scratch()
        let out = scratch.file("out.json")
        let missing = try scratch.skeletond(["capture", scratch.file("nothing.html"), "--size", "640x400", "--out", out])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothing.html: no such file"), "\(missing)")

        let empty = try scratch.write("empty.html", "<!doctype html><html><body style=\"background:#fff\"></body></html>")
        let nothing = try scratch.skeletond(["capture", empty, "--size", "640x400", "--out", out])
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("nothing visible on the page at 640x400"), "\(nothing)")

        let never = try scratch.skeletond(["capture", Self.pages + "/form.html", "--size", "640x400", "--wait-for", "#never",
                                           "--timeout", "1", "--out", out])
        #expect(never.status == 1)
        #expect(never.stderr.contains("waited 1 s for #never to appear"), "\(never)")

        let unreachable = try scratch.skeletond(["capture", "http://127.0.0.1:65500/", "--size", "640x400", "--out", out])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.contains("127.0.0.1:65500/: the page did not load: net::ERR_CONNECTION_REFUSED"), "\(unreachable)")

        // 5,000 pictures in a grid: more items than a grid may have.
        let many = try scratch.write("many.html", """
            <!doctype html><html><body style="margin:0;display:grid;grid-template-columns:repeat(200,4px)">
            \(String(repeating: "<img style=\"width:4px;height:4px;display:block\" src=\"data:image/gif;base64,R0lGODlhAQABAIAAAP8AAP///yH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==\">", count: 5000))
            </body></html>
            """)
        let limits = try scratch.skeletond(["capture", many, "--size", "800x600", "--out", out])
        #expect(limits.status == 1)
        #expect(limits.stderr.contains("the captured layout is not valid, not written"), "\(limits)")
        #expect(limits.stderr.contains("root.children[0].items: 5000 is out of range: expected an integer from 0 to 4096"), "\(limits)")
        #expect(!FileManager.default.fileExists(atPath: out), "no layout written")
    }
}
