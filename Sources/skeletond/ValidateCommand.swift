import ArgumentParser
import SkeletonTools

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check layout files; print every error as FILE: PATH: message."
    )

    @Argument(help: "Layout files.")
    var layouts: [String]

    func validate() throws {
        if layouts.isEmpty { throw ValidationError("give at least one layout file") }
    }

    func run() throws {
        let errors = ValidateTool.validate(paths: layouts)
        if !errors.isEmpty {
            printError(errors)
            throw ExitCode(1)
        }
    }
}
