import SkeletonDisplay
import SkeletonLayout
import SkeletonRender

/// `skeletond render`: a layout to an image file, the skeleton fully shown at a given time.
public enum RenderTool {
    public static func render(layoutPath: String, outputPath: String, size: Size?, time: Double,
                              overrides: PresentationOverrides) throws(ToolError) {
        guard let format = ImageFile.format(for: outputPath) else {
            throw ToolError("\(outputPath): unsupported output format: the file name must end in .png or .ppm")
        }
        let image = try picture(layoutPath: layoutPath, size: size, time: time, overrides: overrides)
        do {
            try ImageFile.write(image.canvas, to: outputPath, format: format)
        } catch {
            throw ToolError("\(outputPath): cannot write the image: \(error)")
        }
    }

    /// The rendered frame in memory.
    public static func picture(layoutPath: String, size: Size?, time: Double,
                               overrides: PresentationOverrides) throws(ToolError) -> PixelBuffer {
        let layout = try load(layoutPath)
        let renderer = FrameRenderer(layout: layout, outputSize: size, overrides: overrides)
        let image = PixelBuffer(size: renderer.layout.outputSize)
        renderer.renderFull(at: time, into: image.canvas)
        return image
    }

    static func load(_ path: String) throws(ToolError) -> Layout {
        switch LayoutLoader.load(path: path) {
        case .success(let layout): return layout
        case .failure(let error): throw ToolError(error)
        }
    }
}
