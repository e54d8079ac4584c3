import SkeletonProtocol
import SkeletonSystem

/// `plymouth`, for an initramfs without Plymouth: skeletond called by that name speaks
/// Plymouth's protocol to the daemon on Plymouth's socket, as Plymouth's own client does, so
/// that what asks through `/bin/plymouth` reaches the screen. cryptsetup's askpass asks for a
/// disk's passphrase that way once `plymouth --ping` succeeds (initramfs hook: the link is made
/// only where Plymouth is not installed). Exit 0 when the daemon acknowledged or answered, 1
/// otherwise (not running, a NAK, "no answer"); an answer goes to standard output with no
/// newline, as Plymouth's client writes it.
public enum PlymouthClient {
    public static func main(arguments: [String]) -> Int32 {
        guard let request = request(for: arguments) else {
            let known = "--ping, ask-for-password, ask-question, watch-keystroke, ignore-keystroke, display-message, hide-message, update, show-splash, "
                + "hide-splash, quit, pause-progress, unpause-progress, deactivate, reactivate, update-root-fs, --newroot, --sysinit, --has-active-vt"
            FileDescriptor.standardError.writeAll(Array("plymouth (skeletond): unknown command \"\(arguments.joined(separator: " "))\"; known: \(known)\n".utf8))
            return 1
        }
        guard let fd = try? SystemCalls.unixConnect("@" + PlymouthRequest.socketName) else { return 1 }
        defer { fd.close() }
        fd.writeAll(request.bytes)
        var reply = [UInt8](repeating: 0, count: 5)
        defer { reply.withUnsafeMutableBytes { SystemCalls.zero($0) } }
        guard (try? reply.withUnsafeMutableBytes({ try fd.readFully(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<1])) })) == true else { return 1 }
        switch reply[0] {
        case 0x06: return 0
        case 0x02:
            guard (try? reply.withUnsafeMutableBytes({ try fd.readFully(into: UnsafeMutableRawBufferPointer(rebasing: $0[1..<5])) })) == true else { return 1 }
            let size = Int(reply[1]) | Int(reply[2]) << 8 | Int(reply[3]) << 16 | Int(reply[4]) << 24
            guard size <= 64 * 1024 else { return 1 }
            var answer = [UInt8](repeating: 0, count: size)
            defer { answer.withUnsafeMutableBytes { SystemCalls.zero($0) } }
            guard (try? answer.withUnsafeMutableBytes({ try fd.readFully(into: $0) })) == true else { return 1 }
            FileDescriptor.standardOutput.writeAll(answer)
            return 0
        default:
            return 1
        }
    }

    /// The request a command line means, as Plymouth's client sends it; nil when unknown.
    static func request(for arguments: [String]) -> PlymouthRequest? {
        guard let first = arguments.first else { return nil }
        let options = Options(arguments.dropFirst())
        func text(_ command: PlymouthRequest.Command, _ option: String) -> PlymouthRequest {
            PlymouthRequest(command: command, argument: options[option].map { Array($0.utf8) })
        }
        switch first {
        case "--ping": return PlymouthRequest(command: .ping)
        case "--sysinit": return PlymouthRequest(command: .systemInitialized)
        case "--has-active-vt": return PlymouthRequest(command: .hasActiveVT)
        case "ask-for-password": return text(.password, "prompt")
        case "ask-question": return text(.question, "prompt")
        case "watch-keystroke": return text(.keystroke, "keys")
        case "ignore-keystroke": return text(.keystrokeRemove, "keys")
        case "display-message", "message": return text(.showMessage, "text")
        case "hide-message": return text(.hideMessage, "text")
        case "update": return text(.update, "status")
        case "show-splash": return PlymouthRequest(command: .showSplash)
        case "hide-splash": return PlymouthRequest(command: .hideSplash)
        case "pause-progress": return PlymouthRequest(command: .progressPause)
        case "unpause-progress": return PlymouthRequest(command: .progressUnpause)
        case "deactivate": return PlymouthRequest(command: .deactivate)
        case "reactivate": return PlymouthRequest(command: .reactivate)
        case "quit": return PlymouthRequest(command: .quit, argument: [options.has("retain-splash") ? 1 : 0])
        case "update-root-fs": return text(.newRoot, "new-root-dir")
        default:
            if first.hasPrefix("--newroot=") { return PlymouthRequest(command: .newRoot, argument: Array(first.dropFirst(10).utf8)) }
            return nil
        }
    }

    /// `--name=value`, `--name value` and `--flag`.
    struct Options {
        private var values: [String: String] = [:]

        init(_ arguments: ArraySlice<String>) {
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                guard argument.hasPrefix("--") else { continue }
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    values[String(body[..<equals])] = String(body[body.index(after: equals)...])
                } else if let next = rest.first, !next.hasPrefix("--") {
                    values[String(body)] = next
                    rest = rest.dropFirst()
                } else {
                    values[String(body)] = ""
                }
            }
        }

        subscript(name: String) -> String? { values[name] }
        func has(_ name: String) -> Bool { values[name] != nil }
    }
}
