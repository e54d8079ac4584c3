import SkeletonLayout

/// `skeletond tree`: the resolved node tree as JSON, frames in output pixels.
public enum TreeTool {
    public static func tree(layoutPath: String, size: Size?) throws(ToolError) -> String {
        let layout = try RenderTool.load(layoutPath)
        var resolver = LayoutResolver(layout: layout, outputSize: size)
        let resolved = resolver.resolve()
        let document: JSONValue = [
            "layout": .string(layout.name),
            "output": [.number(Double(resolved.outputSize.width)), .number(Double(resolved.outputSize.height))],
            "root": resolved.root.json,
        ]
        return document.jsonText
    }
}
