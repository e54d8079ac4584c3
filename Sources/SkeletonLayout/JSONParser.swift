/// A strict RFC 8259 parser that keeps line and column for its errors and rejects duplicate
/// keys (a layout with two "frame" keys in one object is a mistake, not a choice).
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 256

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        if index == bytes.count { throw error("the text is empty") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[index]))")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let keyStart = index
            let key = try parseString()
            if members[key] != nil {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return .object(members)
            default: throw error("expected ',' or '}' in object")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; depth -= 1; return .array(items)
            default: throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        /// The run of plain bytes before `end`, which must be UTF-8 (RFC 8259 section 8.1): no
        /// replacement characters for bytes that are not.
        func flush(_ end: Int) throws(JSONSyntaxError) {
            guard end > runStart else { return }
            var parser = Unicode.UTF8.ForwardParser()
            var input = bytes[runStart..<end].makeIterator()
            var offset = runStart
            while true {
                switch parser.parseScalar(from: &input) {
                case .valid(let encoded):
                    scalars.append(Unicode.UTF8.decode(encoded))
                    offset += encoded.count
                case .error:
                    index = offset
                    throw error("invalid UTF-8 at byte \(offset) (\(describe(bytes[offset])))")
                case .emptyInput:
                    return
                }
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte == UInt8(ascii: "\\") {
                try flush(index)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate in \\u escape") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    index -= 1
                    throw error("invalid escape \\\(describe(escape))")
                }
                runStart = index
                continue
            }
            index += 1
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error("leading zero in number") }
        } else {
            while let c = peek(), isDigit(c) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let c = peek(), isDigit(c) else { throw error("expected a digit after '.'") }
            while let c = peek(), isDigit(c) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let c = peek(), isDigit(c) else { throw error("expected a digit in exponent") }
            while let c = peek(), isDigit(c) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { index = start; throw error("number out of range") }
        return value
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("unexpected character \(describe(bytes[index]))")
        }
        index += expected.count
    }

    private func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let c = peek(), c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        var i = 0
        let end = min(index, bytes.count)
        while i < end {
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }
}
