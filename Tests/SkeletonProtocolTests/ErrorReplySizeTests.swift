import Testing
import SkeletonLayout
import SkeletonProtocol

/// An error reply names a few problems and counts the rest: whatever a line holds, its reply
/// stays far below the 256 KiB a client may leave unread.
@Suite("Error reply size")
struct ErrorReplySizeTests {
    /// The reply the daemon sends for a request line that does not decode.
    func errorReply(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Reply? {
        guard case .failure(let failure) = RequestDecoder.decode(line: Array(line.utf8)) else {
            Issue.record("the request decoded", sourceLocation: sourceLocation)
            return nil
        }
        return Reply.error(id: failure.id, failure.error)
    }

    @Test func fiveThousandUnknownKeys() throws {
        let keys = (0..<5000).map { "\"k\(1000 + $0)\": 1" }.joined(separator: ", ")
        let line = #"{"command": "ping", "id": 7, \#(keys)}"#
        #expect(line.utf8.count > 40_000)
        let reply = try #require(errorReply(line))
        #expect(reply.line.count < 1024, "\(reply.line.count) bytes")
        let listed = (1000..<1005).map { #"field "k\#($0)": unknown key "k\#($0)"; expected one of: command, id for command "ping""# }
        #expect(reply.error == ProtocolError(.badRequest, (listed + [#"and 4995 more unknown keys for command "ping""#]).joined(separator: "; ")))
        #expect(reply.json["id"] == .number(7))
    }

    @Test func unknownKeysInANestedObjectAreCountedThere() throws {
        let keys = (0..<100).map { "\"x\($0)\": 1" }.joined(separator: ", ")
        let reply = try #require(errorReply(#"{"command": "update", "animation": {\#(keys)}}"#))
        #expect(reply.error?.message.hasSuffix(#"field "animation": and 95 more unknown keys"#) == true, "\(reply)")
    }

    /// One issue per bad colour: 30,000 of them made a reply of megabytes.
    @Test func thirtyThousandBadGradientColours() throws {
        let colours = Array(repeating: "1", count: 30_000).joined(separator: ",")
        let reply = try #require(errorReply(#"{"command": "update", "gradient": [\#(colours)]}"#))
        #expect(reply.line.count < 2048, "\(reply.line.count) bytes")
        let message = try #require(reply.error?.message)
        #expect(message.hasPrefix(#"field "gradient[0]": expected a colour string"#))
        #expect(message.hasSuffix("; and 29992 more problems"))
    }

    @Test func layoutFilesListFiveUnknownKeysAndACount() {
        let keys = (0..<5000).map { "\"k\(1000 + $0)\": 1" }.joined(separator: ", ")
        let text = #"{"canvas": {"width": 10, "height": 10}, "root": {"kind": "view", \#(keys)}}"#
        guard case .failure(let error) = LayoutLoader.load(text: Array(text.utf8), file: "keys.json") else {
            Issue.record("a layout with 5,000 unknown keys loaded")
            return
        }
        #expect(error.issues.map(\.path) == ["root.k1000", "root.k1001", "root.k1002", "root.k1003", "root.k1004", "root"])
        #expect(error.issues.last?.message == "and 4995 more unknown keys")
    }
}
