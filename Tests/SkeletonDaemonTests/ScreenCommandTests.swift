@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonProtocol
import SkeletonSettings
import Testing

/// The commands that change what the screen shows besides show and hide, as transitions of the
/// value: an update's content and output layouts, deactivate and reactivate around an app, the
/// way down; with no daemon, display or file.
@Suite struct ScreenCommandTests {
    func look() throws -> SkeletonLook {
        SkeletonLook(layoutName: "t", layout: try ScreenContentTests.layout(ScreenContentTests.withRoles))
    }

    func withoutLog(_ effects: [ScreenEffect]) -> [ScreenEffect] {
        effects.filter { if case .log = $0 { return false } else { return true } }
    }

    @Test func anUpdateWhileHiddenIsKeptWhenAskedAndRefusedOtherwise() throws {
        var screen = Screen()
        let refused = screen.updateWhileHidden(UpdateRequest(message: "Checking disks"))
        guard case .failure(let error)? = refused else {
            Issue.record("not refused: \(String(describing: refused))")
            return
        }
        #expect(error.message == "update while nothing is shown: use show first")
        #expect(screen.updateWhileHidden(UpdateRequest(message: "Checking disks", keep: true)) != nil)
        // Kept for the next show: the look a show asks for carries it.
        let shown = screen.content.look(try look(), adding: PresentationOverrides(), reset: false)
        #expect(shown.content.texts["status"] == "Checking disks")
        _ = screen.show(shown, delay: 0, transition: .none, now: 0)
        #expect(screen.updateWhileHidden(UpdateRequest(message: "x")) == nil, "something shows: a real update")
    }

    @Test func anUpdateSetsTheContentAndTakesTheDisplayBack() throws {
        var screen = Screen()
        let base = try look()
        _ = screen.show(base, delay: 0, transition: .none, now: 0)
        screen.needsDraw = false
        let request = UpdateRequest(message: "Almost there", progress: .fraction(0.9))
        let updated = try screen.update(request, look: base, outputLayout: nil, now: 1).get()
        #expect(updated.look.content == LayoutContent(texts: ["status": "Almost there"], values: ["bar": .fraction(0.9)]))
        #expect(updated.effects == [.reacquireDisplay, .appeared(updated.look)])
        #expect(screen.needsDraw)
        #expect(screen.session.look == updated.look, "the session shows it")
        // The same again changes nothing on screen: no frame owed.
        screen.needsDraw = false
        _ = try screen.update(request, look: screen.session.look!, outputLayout: nil, now: 2).get()
        #expect(!screen.needsDraw)
    }

    @Test func anUpdateNamingANodeTheLayoutLacksIsRefusedWithNothingChanged() throws {
        var screen = Screen()
        let base = try look()
        _ = screen.show(base, delay: 0, transition: .none, now: 0)
        screen.needsDraw = false
        let before = screen
        let result = screen.update(UpdateRequest(content: LayoutContent(texts: ["nope": "x"])), look: base, outputLayout: nil, now: 1)
        guard case .failure = result else {
            Issue.record("accepted")
            return
        }
        #expect(screen.content == before.content && screen.session.look == before.session.look && !screen.needsDraw)
    }

    @Test func anUpdateNamingAnOutputGivesItThatLayoutAlone() throws {
        var screen = Screen()
        let base = try look()
        _ = screen.show(base, delay: 0, transition: .none, now: 0)
        let logo = OutputLayouts.Assigned(name: "logo", layout: TestLayouts.simple)
        _ = try screen.update(UpdateRequest(output: "HDMI-A-2"), look: base, outputLayout: logo, now: 1).get()
        #expect(screen.content.outputLayouts.layoutName(for: "HDMI-A-2") == "logo")
        #expect(screen.content.outputLayouts.layoutName(for: "HDMI-A-1") == nil)
        #expect(screen.outputsMove, "it dissolves there")
    }

    @Test func deactivateAwaitsTheAppAndReactivateTakesTheDisplayBack() throws {
        var screen = Screen()
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        #expect(withoutLog(screen.deactivated(now: 5)).isEmpty)
        #expect(screen.handOver.deadline != nil, "the app's word that it drew is awaited")
        screen.needsDraw = false
        #expect(screen.reactivated(wasDeactivated: false).isEmpty, "not deactivated: nothing to take back")
        #expect(screen.handOver.deadline == nil)
        #expect(withoutLog(screen.reactivated(wasDeactivated: true)) == [.reacquireDisplay])
        #expect(screen.needsDraw)
    }

    @Test func goingDownIsSaidOnceAndEndsTheHandOver() throws {
        var screen = Screen()
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        _ = screen.deactivated(now: 1)
        let first = screen.goDown(.poweroff), again = screen.goDown(.reboot)
        #expect(!first)
        #expect(again, "already going down")
        #expect(screen.goingDown?.mode == .reboot)
        #expect(screen.handOver.deadline == nil)
        #expect(screen.goingDown?.refusal("hide").message == "hide refused: the system is going down (reboot) and the skeleton stays until the power is off")
    }
}
