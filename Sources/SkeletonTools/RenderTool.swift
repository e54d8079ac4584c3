import SkeletonPicture
import SkeletonContent
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// `skeletond render`: a layout to an image file, the skeleton fully shown at a given time.
public enum RenderTool {
    public static func render(layoutPath: String, outputPath: String, size: Size?, time: Double,
                              overrides: PresentationOverrides, content: LayoutContent = LayoutContent()) throws(ToolError) -> [String] {
        guard let format = ImageFile.format(for: outputPath) else {
            throw ToolError("\(outputPath): unsupported output format: the file name must end in .png or .ppm")
        }
        let (image, problems) = try picture(layoutPath: layoutPath, size: size, time: time, overrides: overrides, content: content)
        do {
            try ImageFile.write(image.canvas, to: outputPath, format: format)
        } catch {
            throw ToolError("\(outputPath): cannot write the image: \(error)")
        }
        return problems
    }

    /// The rendered frame in memory.
    /// The rendered frame in memory: pictures and texts as the daemon draws them, `content`
    /// (texts and values by id, as `skeletonctl update` sets them) over the layout's own; and
    /// the pictures and texts that could not be made (drawn as skeletons), as `FILE: PATH: why`.
    public static func picture(layoutPath: String, size: Size?, time: Double,
                               overrides: PresentationOverrides, content: LayoutContent = LayoutContent()) throws(ToolError) -> (image: PixelBuffer, problems: [String]) {
        let layout = try load(layoutPath)
        if let problem = ContentTargets(layout).problem(with: content) { throw ToolError("\(layoutPath): \(problem)") }
        let sprites = ContentSprites()
        let renderer = FrameRenderer(layout: layout, outputSize: size, overrides: overrides, content: content, sprites: sprites)
        let image = PixelBuffer(size: renderer.layout.outputSize)
        renderer.renderFull(at: time, into: image.canvas)
        return (image, renderer.contentProblems.map { "\(layoutPath): \($0)" })
    }

    static func load(_ path: String) throws(ToolError) -> Layout {
        switch LayoutLoader.load(path: path) {
        case .success(let layout): return layout
        case .failure(let error): throw ToolError(error)
        }
    }
}
