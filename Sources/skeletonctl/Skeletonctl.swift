#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import SkeletonLayout
import SkeletonProtocol

@main
struct Skeletonctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skeletonctl",
        abstract: "Control skeletond: show, update or hide the skeleton screen.",
        discussion: "Exit status: 0 on an ok reply, 1 on an error reply, 2 when the daemon cannot be reached.",
        subcommands: [Show.self, Update.self, Hide.self, Status.self, Tree.self, Ping.self, Reload.self, Quit.self]
    )

    /// The connection options (`--socket PATH`, `--timeout S`) may come before the subcommand
    /// (`skeletonctl --socket P show`); the parser reads them in the subcommand's options, so
    /// move them there.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var moved: [String] = []
        while let first = arguments.first, first.hasPrefix("--socket") || first.hasPrefix("--timeout") {
            moved.append(arguments.removeFirst())
            if !first.contains("="), !arguments.isEmpty { moved.append(arguments.removeFirst()) }
        }
        if !moved.isEmpty, !arguments.isEmpty { arguments.insert(contentsOf: moved, at: 1) } else { arguments = moved + arguments }
        main(arguments)
    }
}

/// The socket option shared by every subcommand; SKELETOND_SOCKET overrides the default.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Control socket (default: $SKELETOND_SOCKET or /run/skeletond/control.sock).")
    var socket: String?

    @Option(help: "Seconds to wait for the reply before giving up with exit status 2.")
    var timeout: Double = 10

    var path: String {
        if let socket { return socket }
        if let env = getenv("SKELETOND_SOCKET") { return String(cString: env) }
        return "/run/skeletond/control.sock"
    }

    /// Sends the request, prints the error of an error reply, and exits 0, 1 or 2.
    func call(_ request: [String: JSONValue], output: (Reply) -> Void = { _ in }) throws {
        let client: ControlClient
        switch ControlClient.connect(path: path) {
        case .success(let c): client = c
        case .failure(let f):
            printError(f.message)
            throw ExitCode(2)
        }
        defer { client.close() }
        switch client.send(.object(request), timeout: timeout) {
        case .failure(let f):
            printError(f.message)
            throw ExitCode(2)
        case .success(let reply):
            if reply.isOK {
                output(reply)
                return
            }
            let e = reply.error
            printError("skeletonctl: \(e?.message ?? reply.json.jsonText)" + (e.map { " [\($0.code.rawValue)]" } ?? ""))
            throw ExitCode(1)
        }
    }
}

/// Presentation overrides, in the protocol's field names and shapes.
struct PresentationFlags: ParsableArguments {
    @Option(help: "solid or gradient.")
    var style: String?

    @Flag(inversion: .prefixedNo, help: "Animate (pulse or sliding).")
    var animated: Bool?

    @Option(help: "leftRight, rightLeft, topBottom, bottomTop, topLeftBottomRight or bottomRightTopLeft.")
    var direction: String?

    @Option(help: "Seconds per sweep (or per pulse half-cycle).")
    var duration: Double?

    @Option(help: "Skeleton colour: a flat colour name, #RRGGBB, #RRGGBBAA, rgb() or rgba().")
    var tint: String?

    @Option(help: "Gradient colours C1,C2[,C3...] (two colours: base and secondary).")
    var gradient: String?

    @Option(help: "light or dark.")
    var scheme: String?

    @Flag(name: .customLong("reduced-motion"), inversion: .prefixedNo, help: "Stop all movement (or allow it again).")
    var reducedMotion: Bool?

    func apply(to request: inout [String: JSONValue]) {
        if let style { request["style"] = .string(style) }
        if let animated { request["animated"] = .bool(animated) }
        if let reducedMotion { request["reducedMotion"] = .bool(reducedMotion) }
        var animation: [String: JSONValue] = [:]
        if let direction { animation["direction"] = .string(direction) }
        if let duration { animation["duration"] = .number(duration) }
        if !animation.isEmpty { request["animation"] = .object(animation) }
        if let tint { request["tint"] = .string(tint) }
        if let gradient {
            let colors = gradient.split(separator: ",").map { JSONValue.string(String($0)) }
            request["gradient"] = colors.count == 2 ? ["base": colors[0], "secondary": colors[1]] : .array(colors)
        }
        if let scheme { request["scheme"] = .string(scheme) }
    }
}

/// `none` or `crossDissolve[:SECONDS]`.
func transitionJSON(_ text: String) throws -> JSONValue {
    if text == "none" { return ["kind": "none"] }
    let parts = text.split(separator: ":", maxSplits: 1)
    guard parts.first == "crossDissolve" else {
        throw ValidationError("--transition must be none or crossDissolve[:SECONDS], not \"\(text)\"")
    }
    guard parts.count == 2 else { return ["kind": "crossDissolve"] }
    guard let seconds = Double(parts[1]), seconds >= 0 else {
        throw ValidationError("--transition crossDissolve:SECONDS needs a number of seconds, not \"\(parts[1])\"")
    }
    return ["kind": "crossDissolve", "duration": .number(seconds)]
}

func printError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    bytes.removeAll()
}

func printReplyFields(_ reply: Reply) {
    guard case .object(var members) = reply.json else { return }
    members["ok"] = nil
    members["id"] = nil
    if !members.isEmpty { print(JSONValue.object(members).jsonText) }
}
