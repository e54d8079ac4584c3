import ArgumentParser
import SkeletonCLI
import SkeletonLayout
import SkeletonTools

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a layout's skeleton, fully shown, to a PNG or PPM file."
    )

    @Argument(help: "The layout file.")
    var layout: String

    @Option(name: .long, help: "Output image: FILE.png or FILE.ppm.")
    var out: String

    @Option(help: "Output size WxH (default: the layout's canvas size).")
    var size: Size?

    @Option(name: .customLong("at"), help: "Animation clock in seconds.")
    var seconds: Double = 0

    @OptionGroup var presentation: PresentationOptions

    func run() throws {
        do {
            try RenderTool.render(layoutPath: layout, outputPath: out, size: size, time: seconds,
                                  overrides: presentation.overrides)
        } catch {
            printError(error.lines)
            throw ExitCode(1)
        }
    }
}
