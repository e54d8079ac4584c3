import SkeletonLayout

/// Reads the fields of one object of a `status` reply through the layout's own readers
/// (`ObjectReader`, `ValueReader`): a field that is missing or of the wrong type is an error
/// naming its path, in their words.
struct StatusReader {
    private var object: ObjectReader
    private var values = ValueReader()

    init(_ value: JSONValue, path: JSONPath) throws(StatusDecodingError) {
        guard let object = values.object(value, path) else { throw Self.error(values) }
        self.object = object
    }

    private static func error(_ values: ValueReader) -> StatusDecodingError {
        let issue = values.issues.first
        return StatusDecodingError([issue?.path, issue?.message].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": "))
    }

    /// `read` of the member under `key`; nil when it is absent and `optional`.
    private mutating func field<T>(_ key: String, optional: Bool,
                                   _ read: (inout ValueReader, JSONValue, JSONPath) -> T?) throws(StatusDecodingError) -> T? {
        guard let m = object.member(key) else {
            if optional { return nil }
            values.fail(object.path.key(key), "missing")
            throw Self.error(values)
        }
        guard let v = read(&values, m.value, m.path) else { throw Self.error(values) }
        return v
    }

    mutating func string(_ key: String) throws(StatusDecodingError) -> String {
        try field(key, optional: false) { $0.string($1, $2) }!
    }

    mutating func optionalString(_ key: String) throws(StatusDecodingError) -> String? {
        try field(key, optional: true) { $0.string($1, $2) }
    }

    mutating func bool(_ key: String) throws(StatusDecodingError) -> Bool {
        try field(key, optional: false) { $0.bool($1, $2) }!
    }

    mutating func optionalBool(_ key: String) throws(StatusDecodingError) -> Bool? {
        try field(key, optional: true) { $0.bool($1, $2) }
    }

    mutating func number(_ key: String) throws(StatusDecodingError) -> Double {
        try field(key, optional: false) { $0.number($1, $2, in: -.greatestFiniteMagnitude ... .greatestFiniteMagnitude) }!
    }

    mutating func integer(_ key: String) throws(StatusDecodingError) -> Int {
        try field(key, optional: false) { $0.integer($1, $2, in: -(1 << 53)...(1 << 53)) }!
    }

    mutating func optionalInteger(_ key: String) throws(StatusDecodingError) -> Int? {
        try field(key, optional: true) { $0.integer($1, $2, in: -(1 << 53)...(1 << 53)) }
    }

    mutating func strings(_ key: String) throws(StatusDecodingError) -> [String] {
        try field(key, optional: false) { values, value, path in
            values.array(value, path).flatMap { items in
                let strings = items.enumerated().compactMap { values.string($0.element, path.index($0.offset)) }
                return strings.count == items.count ? strings : nil
            }
        }!
    }

    mutating func value(_ key: String) -> JSONValue? { object.member(key)?.value }
}
