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

    @Option(name: .customLong("text"), help: ArgumentHelp("A label's text by its id, as skeletonctl update sets it (repeatable).",
                                                          valueName: "ID=TEXT"), transform: OptionValues.labelText)
    var texts: [ContentEntry<String>] = []

    @Option(name: .customLong("progress"), help: ArgumentHelp("A bar's value by its id (repeatable).", valueName: "ID=VALUE"),
            transform: OptionValues.progress)
    var progress: [ContentEntry<ProgressValue>] = []

    func run() throws {
        var content = LayoutContent()
        for entry in texts { content.texts[entry.id!] = entry.value }
        for entry in progress {
            guard let id = entry.id else { throw ValidationError("--progress takes ID=VALUE here: a bar's id") }
            content.values[id] = entry.value
        }
        do {
            let problems = try RenderTool.render(layoutPath: layout, outputPath: out, size: size, time: seconds,
                                  overrides: presentation.overrides, content: content)
            printError(problems)
        } catch {
            printError(error.lines)
            throw ExitCode(1)
        }
    }
}
