import SkeletonClient
import SkeletonProtocol
import SkeletonSystem

/// `skeletonctl` in the initramfs: the requests its scripts and a rescue shell make, read
/// without a command-line parser: `[--socket PATH] [--timeout SECONDS] COMMAND [ARGUMENT]`.
/// Exit status as skeletonctl's (0, 1 on an error reply, 2 when the daemon cannot be reached),
/// 64 for what it cannot read.
enum InitramfsControl {
    static let usage = "usage (the initramfs's skeletonctl): skeletonctl [--socket PATH] [--timeout SECONDS] "
        + "ping|status|show|hide|quit|reload|deactivate|reactivate|new-root DIR|shutdown poweroff|reboot|halt|kexec"

    static func main(arguments: [String]) -> Int32 {
        var socket = ControlCall.defaultSocketPath
        var timeout = 10.0
        var rest = arguments[...]
        while let option = rest.first, option.hasPrefix("--") {
            rest = rest.dropFirst()
            var name = option
            var value: String?
            if let equals = option.firstIndex(of: "=") {
                name = String(option[..<equals])
                value = String(option[option.index(after: equals)...])
            } else if let next = rest.first {
                value = next
                rest = rest.dropFirst()
            }
            switch (name, value) {
            case ("--socket", let path?): socket = path
            case ("--timeout", let text?) where Double(text).map({ $0 > 0 }) == true: timeout = Double(text)!
            default: return refuse("cannot read the option \"\(option)\"")
            }
        }
        guard let name = rest.first else { return refuse("no command") }
        let argument = rest.dropFirst().first
        guard rest.count <= 2, let command = command(name, argument) else {
            return refuse("cannot read \"\(rest.joined(separator: " "))\"")
        }
        let (status, reply) = ControlCall.perform(command, path: socket, timeout: timeout)
        if let reply, ["status", "new-root", "shutdown"].contains(name) { printReplyFields(reply) }
        return status
    }

    /// The request `name` (with its one argument where it takes one) stands for.
    static func command(_ name: String, _ argument: String?) -> Command? {
        switch (name, argument) {
        case ("ping", nil): return .ping
        case ("status", nil): return .status
        case ("show", nil): return .show(ShowRequest())
        case ("hide", nil): return .hide(HideRequest())
        case ("quit", nil): return .quit
        case ("reload", nil): return .reload
        case ("deactivate", nil): return .deactivate
        case ("reactivate", nil): return .reactivate
        case ("new-root", let directory?): return .newRoot(directory)
        case ("shutdown", let mode?): return ShutdownMode(rawValue: mode).map { .shutdown(ShutdownRequest(mode: $0)) }
        default: return nil
        }
    }

    private static func refuse(_ problem: String) -> Int32 {
        FileDescriptor.standardError.writeAll(Array("skeletonctl: \(problem)\n\(usage)\n".utf8))
        return 64
    }
}
