@testable import SkeletonDaemon
import SkeletonLayout
import SkeletonProtocol
import SkeletonSettings
import Testing

/// The commands that change what the screen shows, as transitions of the value: an update's
/// content and output layouts, deactivate and reactivate around an app, the way down, a hide that
/// waits for the console; and each command as it comes (`Screen.perform`), with the world it
/// looks up given by the test. No daemon, display or file.
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
        guard case .failure(let error) = result else {
            Issue.record("accepted")
            return
        }
        #expect(error.message == "\"content\": no label node \"nope\" in the layout (its label nodes: \"status\")")
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

    // MARK: commands as they come, with the world they look up

    static let bye = ShutdownTests.layout("bye", background: "#203040")

    /// The test's world: `layouts` and the shutdown layout "bye", the settings' `shutdown` object.
    func world(_ layouts: [String: String] = [:], shutdown: String = #"{"layout": "bye", "messages": {"reboot": "Bis gleich"}}"#,
               deactivated: Bool = false, console: Result<[UInt8], ConsoleWait.Unwaitable> = .failure(ConsoleWait.Unwaitable("it is in graphics mode"))) throws -> CommandWorld {
        guard case .success(let settings) = Settings.parse(Array(#"{"shutdown": \#(shutdown)}"#.utf8), file: "s.json") else { throw HarnessError("settings") }
        return try .reading(layouts.merging(["bye": Self.bye]) { a, _ in a }, shutdown: settings.shutdown, deactivated: deactivated, console: console)
    }

    @Test func theWayDownShowsItsLayoutWithTheModesMessageTakesADeactivatedDisplayBackAndHoldsIt() throws {
        var screen = Screen()
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        let world = try world(deactivated: true)
        let (answer, effects) = screen.perform(.shutdown(ShutdownRequest(mode: .reboot)), in: world, now: 1)
        #expect(answer.fields == ["shutdown": true, "mode": "reboot", "layout": "bye", "state": "showing"])
        // Spared by the last killing spree, the display the app was lent taken back, then drawn.
        #expect(Array(withoutLog(effects).prefix(4)) == [.spareFromShutdownKill, .reactivateDisplay, .takeBackWhenFree, .reacquireDisplay])
        #expect(screen.session.lookInForce?.layoutName == "bye")
        #expect(screen.session.lookInForce?.content.texts["status"] == "Bis gleich")
        #expect(effects.contains(.log(.notice, "going down (reboot): showing bye, \"Bis gleich\", until the power is off")))
        for command in [Command.hide(HideRequest()), .deactivate] {
            let (refused, none) = screen.perform(command, in: world, now: 2)
            #expect(refused.error?.code == .goingDown && none.isEmpty, "\(command)")
        }
        #expect(screen.session.state == .showing)
    }

    @Test func aShutdownLayoutThatCannotBeLoadedGivesWayToTheBuiltInOne() throws {
        var screen = Screen()
        let (answer, effects) = screen.perform(.shutdown(ShutdownRequest(mode: .poweroff)), in: try world(shutdown: #"{"layout": "gone"}"#), now: 0)
        #expect(answer.fields?["layout"] == .string(LayoutStore.builtin.name))
        #expect(effects.contains(.log(.error, "shutdown layout \"gone\": no layout named \"gone\"; showing the built-in default layout instead")))
        #expect(screen.session.state == .showing && screen.session.lookInForce?.layoutName == LayoutStore.builtin.name)
    }

    @Test func aShutdownDuringAHideDissolveStillEndsOnTheShutdownLayout() throws {
        var screen = Screen()
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        _ = screen.perform(.hide(HideRequest(transition: .crossDissolve(duration: 1))), in: try world(), now: 1)
        _ = screen.advance(to: 1.5)
        #expect(screen.session.state == .hiding)
        _ = screen.perform(.shutdown(ShutdownRequest(mode: .poweroff)), in: try world(), now: 1.5)
        let later = screen.advance(to: 3)
        #expect(!later.contains(.closeDisplay), "the hide's end does not take the shutdown layout away")
        #expect(screen.session.state == .showing && screen.session.lookInForce?.layoutName == "bye")
        #expect(screen.session.lookInForce?.content.texts["status"] == "Powering off")
    }

    @Test func withoutAShutdownLayoutTheSkeletonGoesAndNothingIsRefused() throws {
        var screen = Screen()
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        let world = try world(shutdown: #"{"layout": null}"#)
        let (answer, effects) = screen.perform(.shutdown(ShutdownRequest(mode: .halt)), in: world, now: 1)
        #expect(answer.fields == ["shutdown": false, "mode": "halt"])
        #expect(effects.first == .log(.notice, "going down (halt): no shutdown layout (settings: shutdown.layout is null); the console shows"))
        #expect(effects.contains(.closeDisplay))
        #expect(screen.session.state == .idle && screen.goingDown == nil)
        #expect(screen.perform(.show(ShowRequest()), in: world, now: 2).0.fields?["shown"] == true, "not going down: commands are not refused")
    }

    @Test func aRequestForAnOutputWithoutALayoutOrWithAnUnknownOneIsRefusedAndChangesNothing() throws {
        var screen = Screen()
        let world = try world(["logo": TransitionEndTests.still("logo", x: 120)])
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        _ = screen.perform(.update(UpdateRequest(layout: "logo", output: "DP-2")), in: world, now: 1)
        _ = screen.advance(to: 3)
        screen.needsDraw = false
        let before = screen.content
        let (noLayout, none) = screen.perform(.update(UpdateRequest(output: "DP-2")), in: world, now: 4)
        #expect(noLayout.error?.message == "an output is named only with the layout it is to show" && none.isEmpty)
        let (unknown, _) = screen.perform(.show(ShowRequest(layout: "nope", output: "DP-2")), in: world, now: 4)
        #expect(unknown.error?.message == "no layout named \"nope\"")
        #expect(screen.content == before && !screen.needsDraw)
        // Named with its layout: the reply names the output, for the daemon to say whether it is connected.
        let (named, _) = screen.perform(.show(ShowRequest(layout: "logo", output: "DP-1")), in: world, now: 5)
        #expect(named.output == "DP-1" && named.fields?["layout"] == "logo" && named.fields?["updated"] == true)
    }

    @Test func aHideWaitsForTheConsoleOnlyWhenItCanBeRead() throws {
        var screen = Screen()
        _ = screen.show(try look(), delay: 0, transition: .none, now: 0)
        let waiting = try world(console: .success(Array("login: ".utf8)))
        let (asked, _) = screen.perform(.hide(HideRequest(afterConsole: true)), in: waiting, now: 1)
        #expect(asked.fields == ["state": "showing", "waitingForConsole": true])
        #expect(screen.consoleWait != nil)
        _ = screen.perform(.show(ShowRequest()), in: waiting, now: 2)
        let (hidden, effects) = screen.perform(.hide(HideRequest(transition: TransitionSpec.none, afterConsole: true)), in: try world(), now: 3)
        #expect(hidden.fields == ["state": "idle", "hidden": true])
        #expect(effects.first == .log(.info, "hide: not waiting for the console: it is in graphics mode"))
    }
}

