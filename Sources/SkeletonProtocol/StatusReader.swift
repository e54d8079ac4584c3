import SkeletonLayout

/// Reads the fields of one object of a `status` reply, naming the field that is missing or of
/// the wrong type.
struct StatusReader {
    private let members: [String: JSONValue]
    private let path: String

    init(_ value: JSONValue, path: String) {
        if case .object(let m) = value { members = m } else { members = [:] }
        self.path = path
    }

    private func wrong(_ key: String, _ expected: String) -> StatusDecodingError {
        StatusDecodingError("\(path.isEmpty ? "" : path + ".")\(key): expected \(expected), found \(members[key]?.typeDescription ?? "nothing")")
    }

    func string(_ key: String) throws(StatusDecodingError) -> String {
        guard let v = members[key]?.stringValue else { throw wrong(key, "a string") }
        return v
    }

    func optionalString(_ key: String) throws(StatusDecodingError) -> String? {
        guard members[key] != nil else { return nil }
        return try string(key)
    }

    func bool(_ key: String) throws(StatusDecodingError) -> Bool {
        guard let v = members[key]?.boolValue else { throw wrong(key, "true or false") }
        return v
    }

    func optionalBool(_ key: String) throws(StatusDecodingError) -> Bool? {
        guard members[key] != nil else { return nil }
        return try bool(key)
    }

    func number(_ key: String) throws(StatusDecodingError) -> Double {
        guard let v = members[key]?.numberValue else { throw wrong(key, "a number") }
        return v
    }

    func integer(_ key: String) throws(StatusDecodingError) -> Int {
        let v = try number(key)
        guard v.rounded() == v, abs(v) < 1e15 else { throw wrong(key, "a whole number") }
        return Int(v)
    }

    func optionalInteger(_ key: String) throws(StatusDecodingError) -> Int? {
        guard members[key] != nil else { return nil }
        return try integer(key)
    }

    func value(_ key: String) -> JSONValue? { members[key] }
}
