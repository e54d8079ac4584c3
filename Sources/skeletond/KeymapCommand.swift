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
        let status = Self.compile(keymap: keymap, output: output, root: root)
        if status != 0 { throw ExitCode(status) }
    }

    /// `keymap --output FILE [--keymap K] [--root DIR]` read without ArgumentParser: the
    /// initramfs hooks run it in chroots without /proc, where the static executable's
    /// ArgumentParser path stops ("Unable to obtain Swift runtime path"). nil: not that form.
    static func runPlain(_ arguments: [String]) -> Int32? {
        guard arguments.first == "keymap" else { return nil }
        var values: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard ["--keymap", "--output", "--root"].contains(name), let value = rest.popFirst() else { return nil }
            values[name] = value
        }
        guard let output = values["--output"] else { return nil }
        return compile(keymap: values["--keymap"], output: output, root: values["--root"] ?? "")
    }

    static func compile(keymap: String?, output: String, root: String) -> Int32 {
        let choice = keymap.flatMap(KeymapChoice.init(option:)) ?? KeymapChoice.system(root: root)
        let translator: KeyTranslator
        do { translator = try KeyTranslator(choice) } catch {
            printError(["skeletond keymap: \(error)"])
            return 1
        }
        guard let text = translator.compiledText else {
            printError(["skeletond keymap: xkbcommon cannot write the keymap \(choice)"])
            return 1
        }
        do { try SystemCalls.writeFile(output, Array(text.utf8)) } catch {
            printError(["skeletond keymap: \(output): \(error)"])
            return 1
        }
        FileDescriptor.standardOutput.writeAll(Array("\(output): the keymap \(choice), \(text.utf8.count) bytes\n".utf8))
        return 0
    }
}
