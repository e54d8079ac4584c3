import SkeletonLayout

/// The layouts the attacks show, all with a 640x400 canvas (the attacks' output size, so design
/// pixels are output pixels): an animated skeleton above a block of content that the attacks
/// set (a message label, a bar and, for the picture attacks, an image).
enum AttackLayouts {
    /// Where the message label is, in output pixels: x, y, width, height.
    static let labelFrame = (x: 20, y: 160, width: 600, height: 40)
    /// The message label's text colour, which nothing else on screen has.
    static let labelColor: UInt32 = 0xC0392B
    /// The centre of the image node, in output pixels.
    static let pictureCentre = (x: 100, y: 300)

    /// The start layout; with `picture`, an image node showing that file as well.
    static func base(name: String, picture: String? = nil) -> String {
        let image = picture.map { #", {"kind": "image", "id": "picture", "frame": [0, 80, 160, 120], "source": \#(jsonString($0))}"# } ?? ""
        return #"""
            {"name": "\#(name)", "canvas": {"width": 640, "height": 400, "background": "#FFFFFF"},
             "presentation": {"style": "gradient", "animated": true, "animation": {"direction": "leftRight", "duration": 1},
                              "transition": {"kind": "none"}},
             "root": {"kind": "view", "children": [
               {"kind": "text", "id": "lines", "frame": [20, 20, 600, 120], "lines": "auto"},
               {"kind": "view", "id": "content", "frame": [20, 160, 600, 220], "skeletonable": false, "children": [
                 {"kind": "label", "id": "message", "role": "message", "frame": [0, 0, 600, 40], "text": "", "fontSize": 16,
                  "color": "#C0392B"},
                 {"kind": "progress", "id": "bar", "role": "progress", "frame": [0, 50, 600, 10], "value": 0}\#(image)
               ]}
             ]}}
            """#
    }

    /// An animated grid of 4,096 blocks filling the canvas: the shapes limit (as
    /// benchmarks/limits-1080p.json at 1920x1080).
    static let limits = #"""
        {"name": "limits", "canvas": {"width": 640, "height": 400, "background": "#FFFFFF"},
         "presentation": {"style": "gradient", "animated": true, "animation": {"direction": "leftRight", "duration": 1.5},
                          "transition": {"kind": "none"}},
         "root": {"kind": "view", "children": [
           {"kind": "grid", "frame": [0, 0, "100%", "100%"], "itemSize": [10, 6.25], "spacing": [0, 0], "items": 4096,
            "cornerRadius": 1}
         ]}}
        """#

    /// A layout at the node limit: the root and 4,096 leaf blocks (a 64 x 64 grid of 10 x 6
    /// pixels), each nested three views deep but the last, two deep: 16,384 nodes and 4,096
    /// shapes. `indented` writes it as people indent JSON, every key a node may take spelt out
    /// (about 3 MB); otherwise each leaf's chain is one line of ids and frames, and a description
    /// pads the file to `LayoutLimits.fileBytes` less 4 KiB.
    static func huge(name: String, indented: Bool) -> String {
        var text = ##"{"name": "\##(name)", "canvas": {"width": 640, "height": 400, "background": "#FFFFFF"},"## + "\n"
        text += #" "presentation": {"style": "solid", "animated": true, "transition": {"kind": "none"}},"# + "\n"
        text += #" "root": {"kind": "view", "id": "root", "children": ["# + "\n"
        for leaf in 0..<4096 {
            let depth = leaf == 4095 ? 2 : 3
            text += "    " + (indented ? indentedChain(leaf, depth: depth) : compactChain(leaf, depth: depth)) + (leaf == 4095 ? "\n" : ",\n")
        }
        text += " ]}"
        guard !indented else { return text + "}\n" }
        let padding = max(0, LayoutLimits.fileBytes - 4096 - text.utf8.count - 24)
        return text + #", "description": "\#(String(repeating: "x", count: padding))"}"# + "\n"
    }

    private static func compactChain(_ leaf: Int, depth: Int) -> String {
        var node = #"{"kind":"view","id":"l\#(leaf)","frame":[\#(leaf % 64 * 10),\#(leaf / 64 * 6),9,5]}"#
        for level in (0..<depth).reversed() { node = #"{"kind":"view","id":"w\#(leaf)-\#(level)","children":["# + node + "]}" }
        return node
    }

    private static func indentedChain(_ leaf: Int, depth: Int) -> String {
        var node = #"{"kind": "view", "id": "leaf-\#(leaf)", "frame": [\#(leaf % 64 * 10), \#(leaf / 64 * 6), 9, 5], "cornerRadius": 1, "#
            + #""animationDelay": 0, "hiddenWhenSkeletonActive": false, "skeletonable": true}"#
        for level in (0..<depth).reversed() {
            let indent = String(repeating: "  ", count: level + 2)
            node = #"{"kind": "view", "id": "wrapper-\#(leaf)-\#(level)", "frame": [0, 0, "100%", "100%"], "#
                + #""skeletonable": true, "hiddenWhenSkeletonActive": false, "cornerRadius": 0, "children": ["# + "\n"
                + indent + "  " + node + "\n" + indent + "]}"
        }
        return node
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String { JSONValue.string(text).jsonText }
}
