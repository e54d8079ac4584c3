@testable import SkeletonDaemon
import Testing

/// The display host's timers as values: looks for a display that back off and a wait begun
/// once; a better display asked for a bounded number of times.
@Suite struct DisplayWaitTests {
    @Test func looksBackOffFromHalfASecondToEightAndTheWaitBeginsOnce() {
        var wait = DisplayWait()
        let begun = wait.noDisplay(now: 0, waitSeconds: 5)
        #expect(begun, "the wait begins: said")
        #expect(wait.deadline == 5)
        #expect(wait.since == 0)
        var looks: [Double] = []
        var now = 0.0
        for _ in 0..<7 {
            guard let due = wait.retryAt else { break }
            looks.append(due - now)
            now = due
            let early = wait.takeDueLook(now: due - 0.001)
            let onTime = wait.takeDueLook(now: due)
            let begunAgain = wait.noDisplay(now: now, waitSeconds: 5)
            #expect(!early && onTime, "due at its time, not before")
            #expect(!begunAgain, "said once")
        }
        #expect(looks == [0.5, 1, 2, 4, 8, 8, 8], "no busy loop however long the card stays away")
        let ranOut = wait.takeRunOut(now: 100)
        let ranOutAgain = wait.takeRunOut(now: 200)
        let begunLater = wait.noDisplay(now: 200, waitSeconds: 5)
        #expect(ranOut && !ranOutAgain, "runs out once")
        #expect(!begunLater, "not begun again until a display came")
        wait.attached(card: true)
        #expect(wait.retryAt == nil && wait.deadline == nil && wait.since == nil, "nothing waited for")
        let begunAfterADisplay = wait.noDisplay(now: 300, waitSeconds: 5)
        #expect(begunAfterADisplay, "a display that goes starts a new wait")
        #expect(wait.retryAt == 300.5)
    }

    /// At the end of the wait `auto` draws into memory, unless the machine has a card to wait
    /// for: one it had (gone away), or one the initramfs may lack the driver of.
    @Test func theWaitRunsOutIntoMemoryOnlyWhereNoCardIsToBeWaitedFor() {
        var wait = DisplayWait()
        #expect(wait.runOut(backendIsAuto: true) == .drawIntoMemory)
        #expect(wait.runOut(backendIsAuto: false) == .keepWaiting(nil), "a backend asked for by name is waited for")
        wait.keepsWaitingForCard = true
        #expect(wait.runOut(backendIsAuto: true) == .keepWaiting("in the initramfs, the card's driver may come only with the real root"))
        var hadOne = DisplayWait()
        hadOne.attached(card: false)
        #expect(hadOne.runOut(backendIsAuto: true) == .drawIntoMemory, "memory or a window is not a card")
        hadOne.attached(card: true)
        hadOne.attached(card: false)
        #expect(hadOne.hadCard, "remembered across attachments")
        #expect(hadOne.runOut(backendIsAuto: true) == .keepWaiting("this machine's card went away, and the memory output would show nothing"))
    }

    @Test func aBetterDisplayIsAskedForSixteenTimesHalfASecondApart() {
        var retries = ReplacementRetries()
        retries.nothingYet(now: 0)
        #expect(retries.dueAt == nil, "no card appeared: nothing to ask again")
        retries.cardAppeared()
        var asks = 0
        var now = 0.0
        retries.asking()
        retries.nothingYet(now: now)
        while let due = retries.dueAt {
            #expect(due - now == ReplacementRetries.interval)
            now = due
            let result43 = retries.takeDue(now: now)
            #expect(result43)
            asks += 1
            retries.asking()
            retries.nothingYet(now: now)
        }
        #expect(asks == ReplacementRetries.count)
    }
}
