/// One question of systemd's password agent protocol: an `ask.*` file in
/// /run/systemd/ask-password, whose `[Ask]` section says where the answer goes (`Socket=`), what
/// to show (`Message=`, `Icon=`), whether the typed characters may be shown (`Echo=`) and until
/// when the asker waits (`NotAfter=`, CLOCK_MONOTONIC microseconds).
public struct PasswordAsk: Sendable, Equatable {
    /// The ask file's path: the question's identity while it is open.
    public var file: String
    /// The asker's datagram socket: "+" and the password, or "-" to cancel.
    public var socket: String
    public var message: String
    public var icon: String?
    /// What is asked for, e.g. "cryptsetup:/dev/vda2".
    public var id: String?
    public var pid: Int32?
    /// The characters may be shown as typed.
    public var echo: Bool
    /// A cached password may be given (this agent caches none).
    public var acceptCached: Bool
    /// Ask without showing anything (systemd's `Silent=`): answered like any other.
    public var silent: Bool
    /// CLOCK_MONOTONIC microseconds after which the asker gives up; nil: it waits for ever.
    public var notAfter: UInt64?

    /// Where systemd's askers put their files.
    public static let directory = "/run/systemd/ask-password"
    /// Ask files are a few hundred bytes; anything bigger is not read.
    public static let sizeLimit = 16 * 1024

    public init(file: String, socket: String, message: String = "", icon: String? = nil, id: String? = nil, pid: Int32? = nil,
                echo: Bool = false, acceptCached: Bool = false, silent: Bool = false, notAfter: UInt64? = nil) {
        self.file = file
        self.socket = socket
        self.message = message
        self.icon = icon
        self.id = id
        self.pid = pid
        self.echo = echo
        self.acceptCached = acceptCached
        self.silent = silent
        self.notAfter = notAfter
    }

    /// Whether the file's name is an ask file's (`ask.` and a suffix; systemd writes its
    /// files under another name first and renames them).
    public static func isAskFile(_ name: String) -> Bool { name.hasPrefix("ask.") && name.count > 4 }

    /// The asker stopped waiting by `now` (CLOCK_MONOTONIC microseconds).
    public func hasExpired(atMicroseconds now: UInt64) -> Bool { notAfter.map { now > $0 } ?? false }

    /// Reads an ask file's text: the `[Ask]` section's keys (others are ignored, as systemd's
    /// agents ignore them); `Socket=` is required and must be an absolute path.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<PasswordAsk, AskFileError> {
        guard bytes.count <= sizeLimit else { return .failure(AskFileError(file: file, reason: "it is \(bytes.count) bytes, more than the \(sizeLimit) an ask file may have")) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(AskFileError(file: file, reason: "it is not UTF-8 text")) }
        var section = ""
        var values: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { return .failure(AskFileError(file: file, line: index + 1, reason: "a section header without \"]\"")) }
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                return .failure(AskFileError(file: file, line: index + 1, reason: "\"\(line.prefix(40))\" is not KEY=VALUE"))
            }
            guard section == "Ask" else { continue }
            values[String(line[..<equals]).trimmingWhitespace] = String(line[line.index(after: equals)...]).trimmingWhitespace
        }
        guard let socket = values["Socket"], socket.hasPrefix("/") else {
            return .failure(AskFileError(file: file, reason: values["Socket"] == nil ? "no Socket= in its [Ask] section" : "Socket= \"\(values["Socket"]!)\" is not an absolute path"))
        }
        var ask = PasswordAsk(file: file, socket: socket, message: unescape(values["Message"] ?? ""))
        ask.icon = values["Icon"].flatMap { $0.isEmpty ? nil : $0 }
        ask.id = values["Id"].map(unescape)
        ask.pid = values["PID"].flatMap { Int32($0) }
        for (key, keyPath) in [("Echo", \PasswordAsk.echo), ("AcceptCached", \.acceptCached), ("Silent", \.silent)] {
            guard let value = values[key] else { continue }
            guard let flag = boolean(value) else { return .failure(AskFileError(file: file, reason: "\(key)= \"\(value)\" is not a boolean")) }
            ask[keyPath: keyPath] = flag
        }
        if let value = values["NotAfter"] {
            guard let time = UInt64(value) else { return .failure(AskFileError(file: file, reason: "NotAfter= \"\(value)\" is not a number of microseconds")) }
            ask.notAfter = time == 0 ? nil : time
        }
        return .success(ask)
    }

    /// systemd's parse_boolean.
    static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "yes", "y", "true", "t", "on": return true
        case "0", "no", "n", "false", "f", "off": return false
        default: return nil
        }
    }

    /// systemd writes `Message=` through cescape: backslash escapes for `\\`, `\n`, `\t`, `\"`
    /// and `\xNN`, which are undone here (an escape this does not know stays as it is).
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var i = 0
        while i < source.count {
            let b = source[i]
            guard b == UInt8(ascii: "\\"), i + 1 < source.count else { bytes.append(b); i += 1; continue }
            let next = source[i + 1]
            switch next {
            case UInt8(ascii: "n"): bytes.append(0x0A); i += 2
            case UInt8(ascii: "t"): bytes.append(0x09); i += 2
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): bytes.append(next); i += 2
            case UInt8(ascii: "x") where i + 3 < source.count:
                if let value = UInt8(String(decoding: source[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    i += 4
                } else {
                    bytes.append(b)
                    i += 1
                }
            default: bytes.append(b); i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    /// Without spaces, tabs and carriage returns at either end.
    package var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
