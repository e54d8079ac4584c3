import ArgumentParser
import SkeletonCLI
import SkeletonLayout
import SkeletonProtocol

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the skeleton (a layout of the layouts directory).")
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "Layout name (default: the one in force).") var layout: String?
    @OptionGroup var presentation: PresentationOptions
    @Flag(help: "Drop the overrides earlier commands left in force: the layout's own look, these options on top.")
    var reset = false
    @Option(help: "Seconds to wait before showing, 0 to 3600; a hide meanwhile cancels the show.",
            transform: { try OptionValues.value(.showDelay, $0, of: "--delay") }) var delay: Double = 0
    @Option(help: "none or crossDissolve[:SECONDS].", transform: OptionValues.transition) var transition: TransitionSpec?
    @Flag(help: "Return once the show transition has finished.") var wait = false
    @Option(help: "The connector (HDMI-A-2) whose layout LAYOUT sets; default: the main layout, on every output without one of its own.")
    var output: String?

    func run() throws {
        try connection.call(.show(ShowRequest(layout: layout, delay: delay, transition: transition,
                                              overrides: presentation.overrides, reset: reset, wait: wait, output: output)))
    }
}

struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Change the shown skeleton's presentation or layout.")
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "Layout name to switch to.") var layout: String?
    @OptionGroup var presentation: PresentationOptions
    @Flag(help: "Drop the overrides earlier commands left in force: the layout's own look, these options on top.")
    var reset = false
    @Option(help: "How a change that redraws everything dissolves: none or crossDissolve[:SECONDS].",
            transform: OptionValues.transition)
    var transition: TransitionSpec?
    @Option(help: "The connector (HDMI-A-2) whose layout LAYOUT sets; default: the main layout, on every output without one of its own.")
    var output: String?
    @Option(name: .customLong("text"), help: ArgumentHelp("A label's text by its id (repeatable).", valueName: "ID=TEXT"),
            transform: OptionValues.labelText)
    var texts: [ContentEntry<String>] = []
    @Option(name: .customLong("progress"),
            help: ArgumentHelp("A bar's value from 0 to 1 or indeterminate, by id; without ID=, the layout's progress bar (repeatable).",
                               valueName: "[ID=]VALUE"),
            transform: OptionValues.progress)
    var progress: [ContentEntry<ProgressValue>] = []
    @Option(help: "The text of the label whose role is message.") var message: String?

    func run() throws {
        var request = UpdateRequest(layout: layout, transition: transition, overrides: presentation.overrides, reset: reset,
                                    output: output, message: message)
        for entry in texts { request.content.texts[entry.id!] = entry.value }
        for entry in progress {
            if let id = entry.id { request.content.values[id] = entry.value } else { request.progress = entry.value }
        }
        try connection.call(.update(request))
    }
}

struct Hide: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Hide the skeleton.")
    @OptionGroup var connection: ConnectionOptions
    @Option(help: "none or crossDissolve[:SECONDS].", transform: OptionValues.transition) var transition: TransitionSpec?
    @Flag(help: "Leave the last frame on screen and hand the display to the next program.") var retain = false
    @Flag(help: "Return once the hide transition has finished.") var wait = false

    func run() throws {
        try connection.call(.hide(HideRequest(transition: transition, retain: retain, wait: wait)))
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the daemon's state.")
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() throws {
        try connection.call(.status) { reply in
            if json { printReplyFields(reply); return }
            let j = reply.json
            var lines = ["state: \(j["state"]?.stringValue ?? "?")"]
            if let layout = j["layout"]?.stringValue { lines.append("layout: \(layout)") }
            if let p = j["presentation"] {
                let style = p["style"]?.stringValue ?? "?"
                let animated = p["animated"]?.boolValue == true
                let direction = p["animation"]?["direction"]?.stringValue ?? "?"
                lines.append("presentation: \(style), \(animated ? "animated (\(direction))" : "static")")
            }
            lines.append("backend: \(j["backend"]?.stringValue ?? "?")")
            if case .array(let outputs)? = j["outputs"] {
                for o in outputs {
                    lines.append("output \(o["name"]?.stringValue ?? "?"): \(o["mode"]?.stringValue ?? o["size"]?.stringValue ?? "?"), \(JSONValue.formatNumber(o["framesPresented"]?.numberValue ?? 0)) frames presented")
                }
            }
            lines.append("frames drawn: \(JSONValue.formatNumber(j["framesDrawn"]?.numberValue ?? 0)), \(JSONValue.formatNumber(j["frameRate"]?.numberValue ?? 0)) fps, uptime \(JSONValue.formatNumber(j["uptime"]?.numberValue ?? 0)) s")
            if let problem = j["problem"]?.stringValue { lines.append("problem: \(problem)") }
            print(lines.joined(separator: "\n"))
        }
    }
}

struct Tree: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the resolved node tree of the layout in force.")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try connection.call(.tree) { print($0.json["tree"]?.jsonText ?? "null") } }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that the daemon answers.")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try connection.call(.ping) }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Re-read settings and layouts.")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try connection.call(.reload) }
}

struct Quit: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Stop the daemon (restoring the display).")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try connection.call(.quit) }
}

struct NewRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-root",
        abstract: "Tell the daemon started in the initramfs that the real root is mounted at PATH.",
        discussion: """
            For the initramfs's last step (initramfs-tools' init-bottom, dracut's pre-pivot): the daemon \
            moves its root there, so that it keeps working after the switch; when the real root has no \
            skeletond, it gives the display back and exits instead.
            """)
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "Where the real root is mounted (initramfs-tools: /root, dracut: /sysroot).")
    var path: String
    func run() throws { try connection.call(.newRoot(path), output: printReplyFields) }
}
