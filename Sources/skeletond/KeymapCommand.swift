import ArgumentParser
import SkeletonInput
import SkeletonSettings
import SkeletonSystem

/// `skeletond keymap`: the keymap prompts read keys with, compiled into one file in XKB's text
/// format, for the initramfs (its hooks write it there: no XKB data is needed before the root
/// is mounted).
struct KeymapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keymap",
        abstract: "Compile the prompts' keymap (the console's, from /etc/default/keyboard) into a file."
    )

    @Option(help: "LAYOUT[:VARIANT] to compile instead of the console's (de, fr:oss).")
    var keymap: String?

    @Option(help: "Where the compiled keymap is written.")
    var output: String

    @Option(help: "The root whose /etc/default/keyboard is read (an image being built).")
    var root = ""

    func run() throws {
        let choice = keymap.flatMap(KeymapChoice.init(option:)) ?? KeymapChoice.system(root: root)
        let translator: KeyTranslator
        do { translator = try KeyTranslator(choice) } catch {
            printError(["skeletond keymap: \(error)"])
            throw ExitCode(1)
        }
        guard let text = translator.compiledText else {
            printError(["skeletond keymap: xkbcommon cannot write the keymap \(choice)"])
            throw ExitCode(1)
        }
        do { try SystemCalls.writeFile(output, Array(text.utf8)) } catch {
            printError(["skeletond keymap: \(output): \(error)"])
            throw ExitCode(1)
        }
        print("\(output): the keymap \(choice), \(text.utf8.count) bytes")
    }
}
