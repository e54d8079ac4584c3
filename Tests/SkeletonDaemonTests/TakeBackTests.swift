@testable import SkeletonDaemon
import Testing

/// Taking the display back from another program, as a value: when to ask, what to say, how often.
@Suite struct TakeBackTests {
    @Test func anotherMasterIsSaidOnceThenAskedForQuietlyUntilItLetsGo() {
        var takeBack = TakeBack()
        #expect(takeBack.step(now: 0, eligible: true, released: false, problem: false, heldByAnother: false) == .nothing)
        #expect(takeBack.due(now: 1, justTaken: true) == 1, "a display just taken is seen to at once")
        #expect(takeBack.step(now: 1, eligible: true, released: false, problem: false, heldByAnother: true) == .sayTaken)
        #expect(takeBack.due(now: 1, justTaken: true) == 1 + TakeBack.masterRetryInterval, "then at the quiet pace")
        #expect(takeBack.step(now: 1.1, eligible: true, released: false, problem: false, heldByAnother: true) == .nothing,
                "not fought: asked again only after the interval")
        let at = 1 + TakeBack.masterRetryInterval
        #expect(takeBack.step(now: at, eligible: true, released: false, problem: false, heldByAnother: true) == .ask(quietly: true))
        takeBack.asked(now: at, quietly: true, got: false)
        #expect(takeBack.dueAt == at + TakeBack.masterRetryInterval)
        #expect(takeBack.step(now: at + 0.3, eligible: true, released: false, problem: false, heldByAnother: true) == .ask(quietly: true))
        takeBack.asked(now: at + 0.3, quietly: true, got: true)
        #expect(takeBack.dueAt == nil, "back: nothing waits")
    }

    @Test func goingDownAsksForTheDisplaySoonAndNotQuietly() {
        var takeBack = TakeBack()
        #expect(takeBack.step(now: 0, eligible: true, released: true, problem: false, heldByAnother: false) == .nothing,
                "let go on purpose (a hide): not taken back")
        takeBack.goingDown()
        #expect(takeBack.step(now: 0, eligible: true, released: true, problem: false, heldByAnother: false) == .ask(quietly: false))
        takeBack.asked(now: 0, quietly: false, got: false)
        #expect(takeBack.dueAt == TakeBack.goingDownInterval)
    }

    @Test func nothingIsTakenBackFromAnAppAfterDeactivate() {
        var takeBack = TakeBack()
        _ = takeBack.step(now: 0, eligible: true, released: false, problem: false, heldByAnother: true)
        #expect(takeBack.step(now: 5, eligible: false, released: false, problem: false, heldByAnother: true) == .nothing)
        #expect(takeBack.dueAt == nil)
    }
}
