@testable import SkeletonLog
import Testing

@Suite struct LogEscapingTests {
    @Test func controlCharactersAreEscaped() {
        #expect(LogEscaping.escaped("plain text, é ✓") == "plain text, é ✓")
        #expect(LogEscaping.escaped("x\n<3>FORGED") == "x\\n<3>FORGED")
        #expect(LogEscaping.escaped("a\r\tb\u{1B}[31mc\u{7F}\u{85}\u{2028}") == "a\\r\\tb\\x1B[31mc\\x7F\\x85\\u{2028}")
    }
}
