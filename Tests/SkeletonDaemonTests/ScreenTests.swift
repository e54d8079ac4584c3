@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonPrompt
import SkeletonSettings
import SkeletonSystem
import Testing

/// The daemon's core as a value: each transition's new state and the effects it asks for, in
/// order, with no daemon, display or file.
@Suite struct ScreenTests {
    let look = SkeletonLook(layoutName: "a", layout: TestLayouts.simple)
    let fade = TransitionSpec.crossDissolve(duration: 0.25)

    func withoutLog(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .log = $0 { return false } else { return true } }
    }

    @Test func aShowTakesTheDisplayRemovesTheHiddenMarkAndOwesAFrame() {
        var screen = Screen()
        let (outcome, effects) = screen.show(look, delay: 0, transition: .none, now: 1)
        #expect(outcome == .shown)
        #expect(effects == [.reacquireDisplay, .writeHiddenMark(false), .appeared(look), .log(.info, "show a: shown")])
        #expect(screen.needsDraw)
        #expect(screen.session.state == .showing)
        // Shown again: an update; the mark is not written twice.
        let (again, more) = screen.show(look, delay: 0, transition: .none, now: 2)
        #expect(again == .updated)
        #expect(withoutLog(more) == [.reacquireDisplay])
    }

    /// A question left to the console's own prompt: the display goes to the console once, however
    /// often that is said, and comes back, owing a frame, when the last such question is gone.
    @Test func aQuestionLeftToTheConsoleLetsTheDisplayGoUntilItIsGone() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 1)
        screen.needsDraw = false
        #expect(withoutLog(screen.consoleNeededForQuestions(true)) == [.releaseDisplay(retainingPicture: false)])
        #expect(screen.steppedAsideForQuestions)
        #expect(screen.consoleNeededForQuestions(true).isEmpty, "said twice: let go once")
        #expect(!screen.needsDraw)
        let back = screen.consoleNeededForQuestions(false)
        #expect(back.first == .log(.info, "prompt: the question left to the console is gone; the skeleton takes the display back"))
        #expect(withoutLog(back) == [.reacquireDisplay])
        #expect(screen.needsDraw && !screen.steppedAsideForQuestions)
        #expect(screen.consoleNeededForQuestions(false).isEmpty, "nothing was let go")
    }

    @Test func aDelayedShowAppearsWhenTimeReachesIt() {
        var screen = Screen()
        let (outcome, effects) = screen.show(look, delay: 2, transition: .none, now: 0)
        #expect(outcome == .pending)
        #expect(withoutLog(effects).isEmpty, "nothing is taken before the show is due")
        #expect(screen.advance(to: 1.9).isEmpty)
        #expect(screen.advance(to: 2) == [.reacquireDisplay, .writeHiddenMark(false), .appeared(look), .offerAgentQuestions])
    }

    @Test func aHideWithAFadeEndsOnTheConsoleOnceTheFadeIsOver() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        let (outcome, effects) = screen.hide(transition: fade, retain: false, now: 1)
        #expect(outcome == .hiding)
        #expect(withoutLog(effects) == [.fadeToConsole])
        #expect(screen.advance(to: 1.2).isEmpty)
        #expect(screen.advance(to: 1.25) == [.writeHiddenMark(true), .closeDisplay, .lastChanceForStartFrames])
        #expect(!screen.needsDraw, "nothing is drawn once the skeleton has gone")
        #expect(screen.session.state == .idle)
    }

    /// The questions are part of the value: one asked owes a frame, and the skeleton's going
    /// leaves it to its asker without owing another.
    @Test func aQuestionOwesAFrameAndIsLeftToItsAskerWhenTheSkeletonGoes() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        screen.needsDraw = false
        let ticket = PlymouthTicket(connection: FileDescriptor(rawValue: 7), serial: 1)
        let question = QuestionQueue.Question(asker: .plymouth(ticket), prompt: Prompt(kind: .password, message: "Passphrase:"))
        let asked = screen.changeQuestions { $0.ask(question, keyboards: 1, now: 0.5) }
        #expect(withoutLog(asked) == [.clearEntry, .consoleForQuestions(false)])
        #expect(screen.needsDraw)
        let (_, effects) = screen.hide(transition: .none, retain: false, now: 1)
        #expect(withoutLog(effects) == [.replyPlymouth(ticket, .noAnswer), .clearEntry, .stopReadingKeys, .writeHiddenMark(true),
                                        .closeDisplay, .lastChanceForStartFrames])
        #expect(!screen.needsDraw)
        #expect(screen.questions.current == nil)
    }

    /// A monitor plugged in while the skeleton shows dissolves in over the look's transition from
    /// its first frame (not from the uevent); the other outputs are not touched; its last frame is owed.
    @Test func aMonitorPluggedInDissolvesInFromItsFirstFrame() {
        var screen = Screen()
        var slow = look
        slow.layout.presentation.transition = .crossDissolve(duration: 0.5)
        _ = screen.show(slow, delay: 0, transition: .none, now: 0)
        let frame = screen.session.frame(at: 10)!
        #expect(withoutLog(screen.outputsPlugged(in: ["HDMI-A-2"], out: [])).isEmpty)
        #expect(screen.needsDraw && screen.outputsMove)
        #expect(screen.frame(frame, for: "HDMI-A-2", now: 9).opacity == 0, "nothing of it before its first frame")
        screen.drawing(at: 10)
        #expect(screen.frame(frame, for: "HDMI-A-2", now: 10).opacity == 0, "its first frame is black")
        #expect(abs(screen.frame(frame, for: "HDMI-A-2", now: 10.25).opacity - 0.5) < 1e-9, "half way, eased")
        #expect(screen.frame(frame, for: "HDMI-A-1", now: 10.25).opacity == 1, "the monitor already there is untouched")
        screen.needsDraw = false
        #expect(screen.advance(to: 10.4).isEmpty && !screen.needsDraw)
        _ = screen.advance(to: 10.5)
        #expect(screen.needsDraw, "the dissolve's last frame is owed")
        #expect(!screen.outputsMove)
        #expect(screen.frame(frame, for: "HDMI-A-2", now: 10.5).opacity == 1)
        // Unplugged while dissolving in: forgotten.
        _ = screen.outputsPlugged(in: ["DP-1"], out: [])
        _ = screen.outputsPlugged(in: [], out: ["DP-1"])
        #expect(!screen.outputsMove)
    }

    @Test func aRetainedHideLeavesThePictureAndMarksAtOnce() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        let (outcome, effects) = screen.hide(transition: fade, retain: true, now: 1)
        #expect(outcome == .retained)
        #expect(effects == [.log(.info, "hide: retained"), .writeHiddenMark(true), .releaseDisplay(retainingPicture: true),
                            .lastChanceForStartFrames])
        #expect(screen.session.retained)
    }

    @Test func aHideOfAPendingShowCancelsItAndMarksHidden() {
        var screen = Screen()
        _ = screen.show(look, delay: 5, transition: .none, now: 0)
        let (outcome, effects) = screen.hide(transition: .none, retain: false, now: 1)
        #expect(outcome == .cancelled)
        #expect(withoutLog(effects) == [.writeHiddenMark(true)])
        #expect(screen.advance(to: 6).isEmpty, "the cancelled show never appears")
        let (nothing, none) = screen.hide(transition: .none, retain: false, now: 7)
        #expect(nothing == .alreadyHidden)
        #expect(withoutLog(none).isEmpty, "the mark is written once")
    }

    @Test func aHideEndsTheHandOverWait() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.deactivated(now: 1)
        #expect(screen.handOver.deadline == 1 + HandOverWatch.patience)
        _ = screen.hide(transition: .none, retain: true, now: 2)
        #expect(screen.handOver.deadline == nil)
    }

    @Test func aHandOverNobodyFinishesIsSaidOnceWhenTimeRunsOut() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.deactivated(now: 1)
        #expect(screen.advance(to: 30).isEmpty)
        let said = screen.advance(to: 31)
        #expect(said.count == 1)
        guard case .log(.warning, let line)? = said.first else { Issue.record("no warning: \(said)"); return }
        #expect(line.hasPrefix("hand-over: deactivated 30 s ago for a display server, and nothing has said since that the app has drawn"))
        #expect(line.hasSuffix("the skeleton's frame stays on the card"))
        #expect(screen.advance(to: 100).isEmpty, "said once")
        #expect(screen.session.state == .showing, "the frame stays")
    }

    @Test func aNewLookWaitingForItsTextsHoldsTheFrameForAtMostTheHold() {
        var screen = Screen()
        let other = SkeletonLook(layoutName: "b", layout: TestLayouts.simple)
        let atStart = screen.holds(look, awaitingSprites: true, firstFrameShown: false, now: 0)
        #expect(!atStart, "the first frame is never held")
        let held = screen.holds(other, awaitingSprites: true, firstFrameShown: true, now: 1)
        #expect(held)
        #expect(screen.heldUntil == 1 + Screen.spriteHold)
        let stillHeld = screen.holds(other, awaitingSprites: true, firstFrameShown: true, now: 1 + Screen.spriteHold - 0.01)
        let pastTheHold = screen.holds(other, awaitingSprites: true, firstFrameShown: true, now: 1 + Screen.spriteHold)
        #expect(stillHeld)
        #expect(!pastTheHold, "past the hold, what is not ready shows as its skeleton")
        #expect(screen.heldUntil == nil)
        let ready = screen.holds(look, awaitingSprites: false, firstFrameShown: true, now: 4)
        #expect(!ready, "a look whose texts are ready is drawn")
    }

    @Test func aShowDuringAHideTakesTheScreenBackAndNothingGoes() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        _ = screen.hide(transition: fade, retain: false, now: 1)
        let (outcome, effects) = screen.show(look, delay: 0, transition: fade, now: 1.1)
        #expect(outcome == .shown)
        #expect(effects == [.reacquireDisplay, .appeared(look), .log(.info, "show a: shown")], "the hidden mark was never written: not removed again")
        screen.needsDraw = false
        #expect(screen.advance(to: 2).isEmpty, "the fade back in ends with no display let go")
        #expect(screen.needsDraw, "its last frame is owed")
        #expect(screen.session.state == .showing)
    }

    @Test func aDissolveBetweenLooksOwesItsLastFrame() {
        var screen = Screen()
        _ = screen.show(look, delay: 0, transition: .none, now: 0)
        let other = SkeletonLook(layoutName: "b", layout: TestLayouts.simple, overrides: PresentationOverrides(style: .solid))
        let changed = screen.update(other, transition: fade, now: 1)
        #expect(changed && screen.needsDraw)
        screen.needsDraw = false
        #expect(screen.advance(to: 1.2).isEmpty)
        #expect(!screen.needsDraw, "mid-dissolve frames come from the animation, not from a change")
        #expect(screen.advance(to: 1.25).isEmpty)
        #expect(screen.needsDraw, "the dissolve's end asks for its last frame")
    }

    @Test func anUpdateWhilePendingChangesWhatWillAppear() {
        var screen = Screen()
        _ = screen.show(look, delay: 2, transition: .none, now: 0)
        let other = SkeletonLook(layoutName: "b", layout: TestLayouts.simple)
        let changed = screen.update(other, transition: .none, now: 1)
        #expect(changed)
        #expect(screen.advance(to: 2) == [.reacquireDisplay, .writeHiddenMark(false), .appeared(other), .offerAgentQuestions])
    }

    @Test func anUpdateWhileNothingShowsChangesNothing() {
        var screen = Screen()
        let changed = screen.update(look, transition: .none, now: 0)
        #expect(!changed)
        #expect(!screen.needsDraw)
    }
}
