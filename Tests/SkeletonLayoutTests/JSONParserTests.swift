import Testing
@testable import SkeletonLayout

@Suite("JSON parser")
struct JSONParserTests {
    /// The syntax error of `text`, or a recorded failure.
    func syntaxError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONSyntaxError? {
        do {
            let value = try JSONValue.parse(text)
            Issue.record("parsed as \(value.jsonText)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesValues() throws {
        let value = try JSONValue.parse(#"{"a": [1, -2.5, 3e2, true, false, null], "b": "x\"\\\/\n\t\u00e9\ud83d\ude00"}"#)
        #expect(value["a"] == .array([1, -2.5, 300, true, false, .null]))
        #expect(value["b"] == .string("x\"\\/\n\té😀"))
        #expect(try JSONValue.parse("  42 \n") == .number(42))
    }

    @Test("syntax errors carry line, column and reason", arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a key in double quotes"),
        ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':' after key \"b\""),
        ("[1, 2", 1, 6, "expected ',' or ']' in array"),
        ("{\"a\": 01}", 1, 8, "leading zero in number"),
        ("{\"a\": \"abc", 1, 11, "unterminated string"),
        ("{\"a\": \"\\x\"}", 1, 9, "invalid escape \\'x'"),
        ("", 1, 1, "the text is empty"),
        ("{} x", 1, 4, "unexpected text after the JSON value"),
        ("{\"é\": tru}", 1, 7, "unexpected character 't'"),
        ("[1e400]", 1, 2, "number out of range"),
        ("[\n\n  @]", 3, 3, "unexpected character '@'"),
    ])
    func syntax(text: String, line: Int, column: Int, reason: String) {
        guard let e = syntaxError(text) else { return }
        #expect(e == JSONSyntaxError(line: line, column: column, reason: reason))
        #expect(e.description == "line \(line), column \(column): \(reason)")
    }

    @Test func duplicateKeyPointsAtTheSecondKey() {
        let text = "{\n  \"frame\": [0, 0, 1, 1],\n  \"kind\": \"view\",\n  \"frame\": [1, 1, 1, 1]\n}"
        guard let e = syntaxError(text) else { return }
        #expect(e == JSONSyntaxError(line: 4, column: 3, reason: "duplicate key \"frame\""))
    }

    @Test func duplicateKeysInNestedObjects() {
        guard let e = syntaxError(#"{"a": {"b": 1, "c": 2, "b": 3}}"#) else { return }
        #expect(e.reason == "duplicate key \"b\"")
        #expect(e.column == 24)
        // The same key in different objects is fine.
        #expect((try? JSONValue.parse(#"{"a": {"b": 1}, "c": {"b": 2}}"#)) != nil)
    }

    @Test func nestingLimit() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        guard let e = syntaxError(deep) else { return }
        #expect(e.reason == "nesting deeper than 256")
    }

    @Test func syntaxErrorThroughTheLoaderNamesTheFile() {
        let result = LayoutLoader.load(text: Array("{\n  \"name\": \"x\",\n  \"name\": \"y\"\n}".utf8), file: "dup.json")
        guard case .failure(let error) = result else { Issue.record("loaded"); return }
        #expect(error.lines == ["dup.json: not valid JSON: line 3, column 3: duplicate key \"name\""])
    }

    @Test func compactOutputSortsKeys() throws {
        let value = try JSONValue.parse(#"{"b": 1.5, "a": [1, "x"], "c": {"z": null}}"#)
        #expect(value.jsonText == #"{"a":[1,"x"],"b":1.5,"c":{"z":null}}"#)
        #expect(JSONValue.formatNumber(0.1 + 0.2) == "0.3")
        #expect(JSONValue.formatNumber(-3) == "-3")
    }
}

/// Strings are UTF-8 or refused, with the byte that is not (RFC 8259 section 8.1).
@Suite struct JSONUTF8Tests {
    func reason(_ bytes: [UInt8]) -> String? {
        do { _ = try JSONValue.parse(bytes); return nil } catch { return "\(error)" }
    }

    @Test func invalidBytesAreRefusedWithTheirOffset() {
        let prefix = Array(#"{"text": "ab"#.utf8)
        #expect(reason(prefix + [0xFF, 0xFE] + Array(#""}"#.utf8)) == "line 1, column 13: invalid UTF-8 at byte 12 (0xff)")
        #expect(reason(prefix + [0xC0, 0x80] + Array(#""}"#.utf8))?.hasSuffix("invalid UTF-8 at byte 12 (0xc0)") == true, "an overlong NUL")
        #expect(reason(prefix + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8))?.contains("invalid UTF-8 at byte 12") == true, "a surrogate")
        #expect(reason(prefix + [0xE2, 0x9C] + Array(#""}"#.utf8))?.contains("invalid UTF-8 at byte 12") == true, "a cut sequence")
        #expect(reason(prefix + [0xF4, 0x90, 0x80, 0x80] + Array(#""}"#.utf8))?.contains("invalid UTF-8 at byte 12") == true, "above U+10FFFF")
        #expect((try? JSONValue.parse(prefix + Array("é ✓ 𝄞".utf8) + Array(#""}"#.utf8)))?["text"] == .string("abé ✓ 𝄞"))
    }
}
