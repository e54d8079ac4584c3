import ArgumentParser
import SkeletonClient
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

    var path: String { socket ?? ControlCall.defaultSocketPath }

    /// Sends the request, prints the error of an error reply, and exits 0, 1 or 2.
    func call(_ command: Command, output: (Reply) throws -> Void = { _ in }) throws {
        let (status, reply) = ControlCall.perform(command, path: path, timeout: timeout)
        guard status == 0, let reply else { throw ExitCode(status) }
        try output(reply)
    }
}

func printError(_ line: String) {
    FileDescriptor.standardError.writeAll(Array((line + "\n").utf8))
}
