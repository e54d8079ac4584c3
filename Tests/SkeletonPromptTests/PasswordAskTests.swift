import SkeletonPrompt
import Testing

@Suite struct PasswordAskTests {
    @Test func readsAnAskFileAsSystemdWritesIt() throws {
        let text = "[Ask]\nPID=412\nSocket=/run/systemd/ask-password/sck.5a1c\nAcceptCached=1\nEcho=0\nNotAfter=19000000\nMessage=Please enter passphrase for disk root (cryptroot):\nIcon=drive-harddisk\nId=cryptsetup:/dev/vda2\n"
        let ask = try PasswordAsk.parse(Array(text.utf8), file: "/run/systemd/ask-password/ask.x").get()
        #expect(ask.socket == "/run/systemd/ask-password/sck.5a1c")
        #expect(ask.message == "Please enter passphrase for disk root (cryptroot):")
        #expect(ask.pid == 412)
        #expect(ask.acceptCached && !ask.echo && !ask.silent)
        #expect(ask.notAfter == 19_000_000)
        #expect(ask.icon == "drive-harddisk")
        #expect(ask.id == "cryptsetup:/dev/vda2")
        #expect(!ask.hasExpired(atMicroseconds: 19_000_000))
        #expect(ask.hasExpired(atMicroseconds: 19_000_001))
    }

    @Test func undoesSystemdsEscapesAndIgnoresOtherSections() throws {
        let text = "[Other]\nSocket=relative\n[Ask]\nSocket=/s\nMessage=Caf\\xc3\\xa9 \\\"x\\\"\\\\y\nEcho=yes\nNotAfter=0\n"
        let ask = try PasswordAsk.parse(Array(text.utf8), file: "f").get()
        #expect(ask.message == "Café \"x\"\\y")
        #expect(ask.echo)
        #expect(ask.notAfter == nil)
    }

    @Test(arguments: [
        ("[Ask]\nMessage=hi\n", "f: no Socket= in its [Ask] section"),
        ("[Ask]\nSocket=sck\n", "f: Socket= \"sck\" is not an absolute path"),
        ("[Ask]\nSocket=/s\nEcho=maybe\n", "f: Echo= \"maybe\" is not a boolean"),
        ("[Ask]\nSocket=/s\nNotAfter=soon\n", "f: NotAfter= \"soon\" is not a number of microseconds"),
        ("[Ask\nSocket=/s\n", "f:1: a section header without \"]\""),
        ("[Ask]\nSocket /s\n", "f:2: \"Socket /s\" is not KEY=VALUE"),
    ])
    func refusesWhatCannotBeAnswered(text: String, error: String) {
        switch PasswordAsk.parse(Array(text.utf8), file: "f") {
        case .success: Issue.record("parsed \(text)")
        case .failure(let e): #expect(e.description == error)
        }
    }

    @Test func refusesHugeAndNonUTF8Files() {
        let huge = [UInt8](repeating: UInt8(ascii: "a"), count: PasswordAsk.sizeLimit + 1)
        #expect(throws: AskFileError(file: "f", reason: "it is 16385 bytes, more than the 16384 an ask file may have")) { try PasswordAsk.parse(huge, file: "f").get() }
        #expect(throws: AskFileError(file: "f", reason: "it is not UTF-8 text")) { try PasswordAsk.parse([0x5B, 0xFF, 0x5D], file: "f").get() }
    }

    @Test func onlyAskFilesAreAskFiles() {
        #expect(PasswordAsk.isAskFile("ask.XyZ12"))
        #expect(!PasswordAsk.isAskFile("ask."))
        #expect(!PasswordAsk.isAskFile("sck.12"))
        #expect(!PasswordAsk.isAskFile(".ask.tmp"))
    }
}
