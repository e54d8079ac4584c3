import ArgumentParser
import SkeletonCLI
import SkeletonLayout
import SkeletonTools

struct TreeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tree",
        abstract: "Print the resolved node tree as JSON, frames in output pixels."
    )

    @Argument(help: "The layout file.")
    var layout: String

    @Option(help: "Output size WxH (default: the layout's canvas size).")
    var size: Size?

    func run() throws {
        do {
            print(try TreeTool.tree(layoutPath: layout, size: size))
        } catch {
            printError(error.lines)
            throw ExitCode(1)
        }
    }
}
