/// Reads one JSON object's members, remembers which keys were asked for, and reports the rest
/// as unknown (with the closest known key as a suggestion).
public struct ObjectReader {
    public let path: JSONPath
    private let members: [String: JSONValue]
    private var known: [String] = []

    public init(members: [String: JSONValue], path: JSONPath) {
        self.members = members
        self.path = path
    }

    /// The member under `key`, with its path; nil when absent.
    public mutating func member(_ key: String) -> (value: JSONValue, path: JSONPath)? {
        known.append(key)
        guard let value = members[key] else { return nil }
        return (value, path.key(key))
    }

    public func has(_ key: String) -> Bool { members[key] != nil }

    /// How many unknown keys an object's issues name; the rest are counted in one more issue,
    /// so that no error (a reply to a line of 5,000 unknown keys) grows with its input.
    public static let listedUnknownKeys = 5

    /// Issues for keys that were never asked for, in sorted order: the first
    /// `listedUnknownKeys` one by one, then how many more there are (at the object's path).
    public func unknownKeyIssues() -> [LayoutIssue] {
        // A linear search: `known` is one decoder's keys, and a Set costs a start more first-run code.
        let unknown = members.keys.filter { !known.contains($0) }.sorted()
        var issues = unknown.prefix(Self.listedUnknownKeys).map { key in
            var message = "unknown key \"\(key)\""
            if let suggestion = ObjectReader.closest(to: key, in: known) {
                message += " (did you mean \"\(suggestion)\"?)"
            } else {
                message += "; expected one of: " + known.sorted().joined(separator: ", ")
            }
            return LayoutIssue(path: path.key(key).text, message: message)
        }
        if unknown.count > Self.listedUnknownKeys {
            issues.append(LayoutIssue(path: path.text, message: "and \(unknown.count - Self.listedUnknownKeys) more unknown keys"))
        }
        return issues
    }

    public static func closest(to word: String, in candidates: [String]) -> String? {
        let lowered = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance <= max(1, candidate.count / 3), distance < (best?.1 ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
