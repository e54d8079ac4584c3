import SkeletonLayout

/// Where a JSON path of the layout loader's errors (`root.children[2].frame`) is in the file's
/// text: the line of the deepest part of the path that the text has (a missing key is reported
/// at the object that lacks it).
struct JSONLocator {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var target = ""
    private var best: (depth: Int, line: Int) = (0, 1)

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The line (from 1) of `path`, or of its deepest part present.
    static func line(of path: String, in bytes: [UInt8]) -> Int {
        var locator = JSONLocator(bytes)
        locator.target = path
        locator.skipSpace()
        locator.value(at: .document)
        return locator.best.line
    }

    /// Notes `path`'s line when the target path is it or lies under it (the paths are built by
    /// the same `JSONPath` as the loader's errors).
    private mutating func reached(_ path: JSONPath, at line: Int) {
        let text = path.text
        guard !text.isEmpty, text.count > best.depth, target.hasPrefix(text) else { return }
        let next = target.dropFirst(text.count).first
        guard next == nil || next == "." || next == "[" else { return }
        best = (text.count, line)
    }

    private mutating func value(at path: JSONPath) {
        guard position < bytes.count else { return }
        reached(path, at: line)
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            skipSpace()
            while position < bytes.count, bytes[position] != UInt8(ascii: "}") {
                let keyLine = line
                let key = string()
                reached(path.key(key), at: keyLine)
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: ":") { position += 1 }
                skipSpace()
                value(at: path.key(key))
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1; skipSpace() } else { break }
            }
            position += 1
        case UInt8(ascii: "["):
            position += 1
            skipSpace()
            var index = 0
            while position < bytes.count, bytes[position] != UInt8(ascii: "]") {
                value(at: path.index(index))
                index += 1
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") { position += 1; skipSpace() } else { break }
            }
            position += 1
        case UInt8(ascii: "\""):
            _ = string()
        default:
            while position < bytes.count, !",}] \t\r\n".utf8.contains(bytes[position]) { position += 1 }
        }
    }

    /// A string's text (escapes kept as written: keys of the layout format need none).
    private mutating func string() -> String {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return "" }
        position += 1
        let start = position
        while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
            if bytes[position] == UInt8(ascii: "\\") { position += 1 }
            if position < bytes.count, bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
        let text = String(decoding: bytes[start..<min(position, bytes.count)], as: UTF8.self)
        position += 1
        return text
    }

    private mutating func skipSpace() {
        while position < bytes.count, " \t\r\n".utf8.contains(bytes[position]) {
            if bytes[position] == UInt8(ascii: "\n") { line += 1 }
            position += 1
        }
    }
}
