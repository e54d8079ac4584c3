import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// One request and its reply, as skeletonctl ends: exit status 0 on an ok reply, 1 on an error
/// reply (its message on standard error), 2 when the daemon cannot be reached or does not
/// answer within the timeout.
package enum ControlCall {
    /// The status, and the reply when it is ok.
    package static func perform(_ command: Command, path: String, timeout: Double) -> (status: Int32, reply: Reply?) {
        let client: ControlClient
        switch ControlClient.connect(path: path) {
        case .success(let c): client = c
        case .failure(let f):
            say(f.message)
            return (2, nil)
        }
        defer { client.close() }
        switch client.send(Request(command: command), timeout: timeout) {
        case .failure(let f):
            say(f.message)
            return (2, nil)
        case .success(let reply):
            if reply.isOK { return (0, reply) }
            let e = reply.error
            say("skeletonctl: \(e?.message ?? reply.json.jsonText)" + (e.map { " [\($0.code.rawValue)]" } ?? ""))
            return (1, nil)
        }
    }

    /// The socket when none is named: $SKELETOND_SOCKET, else the default path.
    package static var defaultSocketPath: String {
        SystemCalls.environment("SKELETOND_SOCKET") ?? "/run/skeletond/control.sock"
    }

    private static func say(_ line: String) {
        FileDescriptor.standardError.writeAll(Array((line + "\n").utf8))
    }
}

/// An ok reply's fields other than `ok` and `id`, as one JSON line on standard output (nothing
/// when there are none).
package func printReplyFields(_ reply: Reply) {
    guard case .object(var members) = reply.json else { return }
    members["ok"] = nil
    members["id"] = nil
    if !members.isEmpty { print(JSONValue.object(members).jsonText) }
}
