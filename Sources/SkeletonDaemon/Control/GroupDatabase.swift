import SkeletonSettings
import SkeletonSystem
/// Group and user look-ups read straight from /etc/group and /etc/passwd: a static binary has
/// no NSS modules, and an initramfs may have neither file (numeric ids still work).
enum GroupDatabase {
    struct Group {
        var name: String
        var gid: UInt32
        var members: [String]
    }

    static func groups(root: String = "") -> [Group] {
        guard let bytes = SystemCalls.readFile(root + "/etc/group") else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 4, let gid = UInt32(fields[2]) else { return nil }
            return Group(name: String(fields[0]), gid: gid, members: fields[3].split(separator: ",").map(String.init))
        }
    }

    /// A group by name or numeric id.
    static func gid(of group: String) -> UInt32? {
        if let n = UInt32(group) { return n }
        return groups().first { $0.name == group }?.gid
    }

    static func userName(of uid: UInt32) -> String? {
        guard let bytes = SystemCalls.readFile("/etc/passwd") else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 3, UInt32(fields[2]) == uid { return String(fields[0]) }
        }
        return nil
    }

    /// True when `uid` lists `gid` among its supplementary groups.
    static func isMember(uid: UInt32, of gid: UInt32) -> Bool {
        guard let user = userName(of: uid) else { return false }
        return groups().contains { $0.gid == gid && $0.members.contains(user) }
    }
}
