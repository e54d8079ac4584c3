import ArgumentParser

@main
struct Skeletond: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skeletond",
        abstract: "Draws an app's skeleton screen on the display from early boot.",
        subcommands: [RunCommand.self, RenderCommand.self, ValidateCommand.self, TreeCommand.self, BenchCommand.self, BenchControlCommand.self]
    )
}
