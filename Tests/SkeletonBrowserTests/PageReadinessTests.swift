import SkeletonBrowser
import Testing

/// The readiness of the kiosk's page as a value: inputs and a manual clock in, effects out.
@Suite struct PageReadinessTests {
    let settings = PageReadiness.Settings(timeout: 30, retryInterval: 2, pollInterval: 0.05)

    func started(url: String? = "http://kiosk/") -> (PageReadiness, [PageReadiness.Effect]) {
        var r = PageReadiness(url: url, settings: settings, now: 100)
        let first = r.handle(.tick, at: 100)
        return (r, first)
    }

    @Test func theFirstTickNavigatesAndLooks() {
        let (r, effects) = started()
        #expect(effects == [.navigate, .look])
        #expect(r.nextDeadline == 130, "only the timeout is due until the look answers")
        let (_, withoutURL) = started(url: nil)
        #expect(withoutURL == [.look], "no URL: the page the browser opened is watched")
    }

    @Test func readyIsTheLoadEventThenNoHoldThenAFrame() {
        var (r, _) = started()
        #expect(r.handle(.navigated(error: nil), at: 100.2).isEmpty)
        #expect(r.handle(.observed(.loading), at: 100.3).isEmpty)
        #expect(r.nextDeadline == 100.35, "the next look is due a poll interval later")
        #expect(r.handle(.tick, at: 100.35) == [.look])
        #expect(r.handle(.observed(.holding), at: 100.4).isEmpty)
        #expect(r.phase == .waiting)
        let effects = r.handle(.observed(.drawn), at: 102.9)
        #expect(effects == [.reveal, .log("the page is ready after 2.9 s: the skeleton goes")])
        #expect(r.phase == .revealed(ready: true))
        #expect(r.nextDeadline == nil)
        #expect(r.handle(.tick, at: 200).isEmpty, "revealed once, nothing after")
    }

    @Test func aPageThatNeverLetsGoIsShownAtTheTimeoutSayingWhyOnce() {
        var (r, _) = started()
        _ = r.handle(.navigated(error: nil), at: 100.1)
        _ = r.handle(.observed(.holding), at: 100.2)
        #expect(r.handle(.tick, at: 129.9) == [.look])
        let effects = r.handle(.tick, at: 130)
        #expect(effects == [.reveal, .log("not ready after 30 s (the page still holds the skeleton with data-skeleton-hold): the page is shown as it is")])
        #expect(r.phase == .revealed(ready: false))
    }

    @Test func aFailedLoadIsNamedOnceTriedAgainAndShownAtTheTimeout() {
        var (r, _) = started()
        let first = r.handle(.navigated(error: "net::ERR_CONNECTION_REFUSED"), at: 100.1)
        #expect(first == [.log("http://kiosk/ did not load: net::ERR_CONNECTION_REFUSED; trying again every 2 s, "
                                + "the skeleton stays until it has loaded or 30 s have passed")])
        _ = r.handle(.observed(.errorPage), at: 100.2)
        #expect(r.handle(.observed(.drawn), at: 100.3).isEmpty, "the browser's error page is not the page")
        #expect(r.handle(.tick, at: 102.1).contains(.navigate), "tried again after the retry interval")
        #expect(r.handle(.navigated(error: "net::ERR_CONNECTION_REFUSED"), at: 102.2).isEmpty, "the same error is not said again")
        let shown = r.handle(.tick, at: 130)
        #expect(shown.first == .reveal)
        #expect(shown.last == .log("not ready after 30 s (it did not load: net::ERR_CONNECTION_REFUSED; the browser's error page): the page is shown as it is"))
    }

    @Test func aServerThatComesUpLaterIsReadyOnceItLoaded() {
        var (r, _) = started()
        _ = r.handle(.navigated(error: "net::ERR_CONNECTION_REFUSED"), at: 100.1)
        _ = r.handle(.tick, at: 102.1)
        #expect(r.handle(.navigated(error: nil), at: 102.3).isEmpty)
        #expect(r.handle(.observed(.drawn), at: 102.5).first == .reveal)
    }

    @Test func aCrashedRendererIsNotReady() {
        var (r, _) = started()
        _ = r.handle(.navigated(error: nil), at: 100.1)
        #expect(r.handle(.rendererCrashed, at: 101) == [.log("the page's renderer crashed: not ready, the skeleton stays until 30 s have passed")])
        #expect(r.handle(.rendererCrashed, at: 101.5).isEmpty, "said once")
        #expect(r.handle(.observed(.drawn), at: 102).isEmpty, "a page drawn after its renderer crashed is not ready")
        #expect(r.handle(.tick, at: 130).last == .log("not ready after 30 s (its renderer crashed): the page is shown as it is"))
    }

    @Test func callsWaitAtMostUntilThePageIsShownAnyway() {
        let (r, _) = started()
        #expect(r.secondsLeft(at: 100) == 30)
        #expect(r.secondsLeft(at: 128) == 2)
        #expect(r.secondsLeft(at: 140) == 0.1, "past the timeout, a call still gets a moment")
    }
}
