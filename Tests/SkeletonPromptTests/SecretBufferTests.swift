import SkeletonPrompt
import Testing

@Suite struct SecretBufferTests {
    private func type(_ text: String, into buffer: SecretBuffer) -> Bool {
        var all = true
        for c in text {
            var utf8 = Array(String(c).utf8)
            all = utf8.withUnsafeBytes { buffer.append($0) } && all
            utf8.removeAll()
        }
        return all
    }

    @Test func keepsCharactersAndTakesTheLastBack() {
        let b = SecretBuffer(capacity: 16)
        #expect(type("Bär@Fuß", into: b))
        #expect(b.count == 7)
        #expect(b.byteCount == 9)
        b.removeLast()
        b.removeLast()
        #expect(b.visibleText == "Bär@F")
        #expect(b.withBytes(prefix: [UInt8(ascii: "+")]) { Array($0) } == Array("+Bär@F".utf8))
        b.clear()
        #expect(b.isEmpty && b.byteCount == 0 && b.visibleText == "")
        b.removeLast()
        #expect(b.count == 0)
    }

    @Test func refusesWhatDoesNotFit() {
        let b = SecretBuffer(capacity: 3)
        #expect(type("abc", into: b))
        #expect(b.isFull)
        #expect(!type("d", into: b))
        #expect(b.visibleText == "abc")
    }
}
