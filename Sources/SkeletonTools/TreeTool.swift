import SkeletonLayout

/// `skeletond tree`: the resolved node tree as JSON, frames in output pixels.
public enum TreeTool {
    public static func tree(layoutPath: String, size: Size?) throws(ToolError) -> String {
        let layout = try RenderTool.load(layoutPath)
        var resolver = LayoutResolver(layout: layout, outputSize: size)
        return resolver.resolve().treeDocument(layoutName: layout.name).jsonText
    }
}
