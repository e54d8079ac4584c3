import SkeletonProtocol
import Testing

/// A request with bytes that are not UTF-8 is refused, naming the byte. (That a client cannot
/// forge a log line, and a complaint it repeats costs a few lines, is `PlymouthOnScreenTests`'.)
@Suite struct RequestUTF8Tests {
    @Test func rawInvalidBytesAreBadJSON() throws {
        let line = Array(#"{"command": "update", "message": "x"#.utf8) + [0xFF, 0xFE] + Array("\"}".utf8)
        guard case .failure(let failure) = RequestDecoder.decode(line: line) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.error.code == .badJSON)
        #expect(failure.error.message.contains("invalid UTF-8 at byte 35 (0xff)"), "\(failure.error.message)")
    }
}
