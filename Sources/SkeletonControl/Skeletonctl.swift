import ArgumentParser
import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// `skeletonctl`: one request to the daemon, its reply, an exit status. The static `skeletond`
/// runs this when it is called by that name (a symlink), so that the package and the initramfs
/// carry one executable.
public struct Skeletonctl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "skeletonctl",
        abstract: "Control skeletond: show, update or hide the skeleton screen.",
        discussion: "Exit status: 0 on an ok reply, 1 on an error reply, 2 when the daemon cannot be reached.",
        subcommands: [Show.self, Update.self, Hide.self, Status.self, Tree.self, Ping.self, Reload.self, Quit.self, Deactivate.self, Reactivate.self, NewRoot.self, Shutdown.self]
    )

    /// The connection options (`--socket PATH`, `--timeout S`) may come before the subcommand
    /// (`skeletonctl --socket P show`); the parser reads them in the subcommand's options, so
    /// move them there.
    public static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var moved: [String] = []
        while let first = arguments.first, first.hasPrefix("--socket") || first.hasPrefix("--timeout") {
            moved.append(arguments.removeFirst())
            if !first.contains("="), !arguments.isEmpty { moved.append(arguments.removeFirst()) }
        }
        if !moved.isEmpty, !arguments.isEmpty { arguments.insert(contentsOf: moved, at: 1) } else { arguments = moved + arguments }
        main(arguments)
    }

    public init() {}
}

/// The socket option shared by every subcommand; SKELETOND_SOCKET overrides the default.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Control socket (default: $SKELETOND_SOCKET or /run/skeletond/control.sock).")
    var socket: String?

    @Option(help: "Seconds to wait for the reply before giving up with exit status 2.")
    var timeout: Double = 10

    var path: String {
        if let socket { return socket }
        if let env = SystemCalls.environment("SKELETOND_SOCKET") { return env }
        return "/run/skeletond/control.sock"
    }

    /// Sends the request, prints the error of an error reply, and exits 0, 1 or 2.
    func call(_ command: Command, output: (Reply) throws -> Void = { _ in }) throws {
        let client: ControlClient
        switch ControlClient.connect(path: path) {
        case .success(let c): client = c
        case .failure(let f):
            printError(f.message)
            throw ExitCode(2)
        }
        defer { client.close() }
        switch client.send(Request(command: command), timeout: timeout) {
        case .failure(let f):
            printError(f.message)
            throw ExitCode(2)
        case .success(let reply):
            if reply.isOK {
                try output(reply)
                return
            }
            let e = reply.error
            printError("skeletonctl: \(e?.message ?? reply.json.jsonText)" + (e.map { " [\($0.code.rawValue)]" } ?? ""))
            throw ExitCode(1)
        }
    }
}

func printError(_ line: String) {
    FileDescriptor.standardError.writeAll(Array((line + "\n").utf8))
}

func printReplyFields(_ reply: Reply) {
    guard case .object(var members) = reply.json else { return }
    members["ok"] = nil
    members["id"] = nil
    if !members.isEmpty { print(JSONValue.object(members).jsonText) }
}
