import Foundation

/// A system group and a user listed in it as a supplementary member (primary group nogroup),
/// made with groupadd and useradd for one test; `remove()` deletes both.
struct TemporaryAccount {
    let group: String
    let user: String
    let gid: UInt32
    let uid: UInt32

    init() throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        group = "skg" + tag
        user = "sku" + tag
        try Self.run("/usr/sbin/groupadd", ["--system", group])
        do {
            try Self.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--no-user-group", "--gid", "nogroup",
                                                "--groups", group, "--shell", "/usr/sbin/nologin", user])
            gid = try Self.id(Self.run("/usr/bin/getent", ["group", group]))
            uid = try Self.id(Self.run("/usr/bin/getent", ["passwd", user]))
        } catch {
            Self.remove(user: user, group: group)
            throw error
        }
    }

    func remove() { Self.remove(user: user, group: group) }

    private static func remove(user: String, group: String) {
        _ = try? runTool("/usr/sbin/userdel", [user])
        _ = try? runTool("/usr/sbin/groupdel", [group])
    }

    /// The third field of a /etc/group or /etc/passwd line: the numeric id.
    private static func id(_ line: String) throws -> UInt32 {
        let fields = line.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count > 2, let id = UInt32(fields[2]) else { throw HarnessError("no id in \(line)") }
        return id
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let r = try runTool(tool, arguments)
        guard r.status == 0 else { throw HarnessError("\(tool) \(arguments.joined(separator: " ")): \(r.err)") }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
