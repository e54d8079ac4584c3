import ArgumentParser
import SkeletonClient
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
    @Flag(help: "Keep --message and the role's --progress for every later layout, and take them while nothing is shown or when the layout has no node of that role (as Plymouth's messages).")
    var keep = false

    func run() throws {
        var request = UpdateRequest(layout: layout, transition: transition, overrides: presentation.overrides, reset: reset,
                                    output: output, message: message, keep: keep)
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
    @Flag(help: "Hide once the text console shows something (a getty's prompt), at most 10 s later; returns at once.")
    var afterConsole = false

    func run() throws {
        try connection.call(.hide(HideRequest(transition: transition, retain: retain, wait: wait, afterConsole: afterConsole)))
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the daemon's state.")
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Print the reply as JSON.") var json = false

    func run() throws {
        try connection.call(.status) { reply in
            if json { printReplyFields(reply); return }
            let status: StatusReply
            do { status = try StatusReply(json: reply.json) } catch {
                printError("skeletonctl: the daemon's status reply is not one this skeletonctl reads (\(error))")
                throw ExitCode(2)
            }
            var lines = ["state: \(status.state.rawValue)\(status.deactivated ? " (deactivated)" : "")"
                         + (status.goingDown.map { " (going down: \($0.rawValue))" } ?? "")]
            if let layout = status.layout { lines.append("layout: \(layout)") }
            if let p = status.presentation {
                let style = p["style"]?.stringValue ?? "?"
                let animated = p["animated"]?.boolValue == true
                let direction = p["animation"]?["direction"]?.stringValue ?? "?"
                lines.append("presentation: \(style), \(animated ? "animated (\(direction))" : "static")")
            }
            lines.append("backend: \(status.backend)")
            for o in status.outputs {
                lines.append("output \(o.name): \(o.mode ?? o.size), \(o.framesPresented) frames presented")
            }
            lines.append("frames drawn: \(status.framesDrawn), \(JSONValue.formatNumber(status.frameRate)) fps, uptime \(JSONValue.formatNumber(status.uptime)) s")
            if let problem = status.problem { lines.append("problem: \(problem)") }
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

struct Deactivate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Let the display go with the frame left on it, for a display server about to open the card.",
        discussion: """
            As `plymouth deactivate` before a display manager starts: the skeleton's last frame stays on             screen, and no show or update takes the display back until `reactivate`.
            """)
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try connection.call(.deactivate) }
}

struct Reactivate: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Let shows and updates take the display back after deactivate.")
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try connection.call(.reactivate) }
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

struct Shutdown: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the shutdown layout until the power is off (the package's poweroff, reboot and halt units).",
        discussion: """
            The daemon shows the shutdown layout (settings: shutdown.layout) with what is happening in \
            its message ("Powering off", "Restarting"; settings: shutdown.messages), takes the display \
            back as soon as an app lets it go, and from then on refuses to hide or quit and does not \
            obey SIGTERM; systemd-shutdown spares it, so the frame stays until the power is off.
            """)
    @OptionGroup var connection: ConnectionOptions
    @Argument(help: "poweroff, reboot, halt or kexec.")
    var mode: ShutdownMode
    @Flag(help: "Return once the shutdown layout's first frame is on screen (at once when an app still holds the display).")
    var wait = false
    func run() throws { try connection.call(.shutdown(ShutdownRequest(mode: mode, wait: wait)), output: printReplyFields) }
}
