import SkeletonBrowser
import SkeletonLayout
import Testing

@Suite struct BrowserCommandLineTests {
    @Test func aChromiumsURLIsOpenedByTheWatchThroughThePipe() {
        let line = BrowserCommandLine(["/usr/bin/chromium", "--kiosk", "--user-data-dir=/var/lib/kiosk", "http://localhost:8080/"])
        #expect(line.isChromium)
        #expect(line.url == "http://localhost:8080/")
        #expect(line.watched == ["/usr/bin/chromium", "--remote-debugging-pipe", "--kiosk", "--user-data-dir=/var/lib/kiosk", "about:blank"])
    }

    @Test func otherProgramsAndLinesWithoutAPage() {
        #expect(!BrowserCommandLine(["firefox-esr", "--kiosk", "http://x/"]).isChromium)
        #expect(!BrowserCommandLine([]).isChromium)
        let bare = BrowserCommandLine(["chromium", "--kiosk"])
        #expect(bare.url == nil)
        #expect(bare.watched == ["chromium", "--remote-debugging-pipe", "--kiosk", "about:blank"])
    }

    @Test func theLookAtThePageReadsEachAnswer() {
        #expect(PageObservation(answer: .string("drawn")) == .drawn)
        #expect(PageObservation(answer: .string("holding")) == .holding)
        #expect(PageObservation(answer: .string("loading")) == .loading)
        #expect(PageObservation(answer: .string("error")) == .errorPage)
        #expect(PageObservation(answer: .null) == .unavailable)
    }
}
