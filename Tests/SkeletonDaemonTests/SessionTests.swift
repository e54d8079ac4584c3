import SkeletonDaemon
import SkeletonSettings
import SkeletonLayout
import Testing

@Suite struct SessionTests {
    let look = SkeletonLook(layoutName: "a", layout: TestLayouts.simple)
    let fade = TransitionSpec.crossDissolve(duration: 0.25)

    @Test func showWithoutDelayAppearsAndFadesIn() {
        var s = Session()
        #expect(s.show(look, delay: 0, transition: fade, now: 10) == .shown)
        #expect(s.state == .showing)
        #expect(s.opacity(at: 10) == 0)
        // ease-in-out is symmetric: half way in time is half way in opacity.
        #expect(abs(s.opacity(at: 10.125) - 0.5) < 1e-9)
        #expect(s.opacity(at: 10.25) == 1)
        #expect(s.advance(to: 10.25) == [.settled], "the fade-in's end asks for its last frame")
        #expect(s.frame(at: 10.25)?.isSteady == true)
        #expect(s.frame(at: 11)?.animationTime == 1)
    }

    @Test func delayedShowAppearsWhenDue() {
        var s = Session()
        #expect(s.show(look, delay: 2, transition: .none, now: 0) == .pending)
        #expect(s.state == .pending)
        #expect(s.frame(at: 1.9) == nil)
        #expect(s.pendingDue == 2)
        #expect(s.advance(to: 1.99).isEmpty)
        #expect(s.advance(to: 2.01) == [.appeared])
        #expect(s.state == .showing)
        // The animation clock starts at the due time, not when the loop noticed.
        #expect(abs((s.frame(at: 2.5)?.animationTime ?? -1) - 0.5) < 1e-9)
    }

    @Test func hideDuringDelayCancelsTheShow() {
        var s = Session()
        _ = s.show(look, delay: 1, transition: .none, now: 0)
        #expect(s.hide(transition: fade, retain: false, now: 0.5) == .cancelled)
        #expect(s.state == .idle)
        #expect(s.advance(to: 5).isEmpty)
        #expect(s.frame(at: 5) == nil)
    }

    @Test func secondShowDuringDelayRestartsIt() {
        var s = Session()
        _ = s.show(look, delay: 1, transition: .none, now: 0)
        let other = SkeletonLook(layoutName: "b", layout: TestLayouts.simple)
        #expect(s.show(other, delay: 1, transition: .none, now: 0.8) == .pending)
        #expect(s.advance(to: 1.5).isEmpty)
        #expect(s.advance(to: 1.8) == [.appeared])
        #expect(s.look?.layoutName == "b")
    }

    @Test func secondShowWhileShownIsAnUpdate() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        var changed = look
        changed.overrides.tint = Color(rgb: 0x3498DB)
        #expect(s.show(changed, delay: 0, transition: fade, now: 1) == .updated)
        #expect(s.look?.overrides.tint == Color(rgb: 0x3498DB))
        #expect(s.opacity(at: 1) == 1)
    }

    @Test func hideFadesOutThenGoesIdle() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        #expect(s.hide(transition: .crossDissolve(duration: 0.5), retain: false, now: 3) == .hiding)
        #expect(s.state == .hiding)
        #expect(s.opacity(at: 3) == 1)
        #expect(abs(s.opacity(at: 3.25) - 0.5) < 1e-9)
        #expect(s.advance(to: 3.4).isEmpty)
        #expect(s.advance(to: 3.5) == [.disappeared(retained: false)])
        #expect(s.state == .idle)
        #expect(s.frame(at: 3.5) == nil)
    }

    @Test func hideWithoutTransitionIsImmediate() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        #expect(s.hide(transition: .none, retain: false, now: 1) == .hidden)
        #expect(s.state == .idle)
    }

    @Test func retainLeavesTheFrameAndGoesIdle() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        #expect(s.hide(transition: fade, retain: true, now: 1) == .retained)
        #expect(s.state == .idle)
        #expect(s.retained)
        _ = s.show(look, delay: 0, transition: .none, now: 2)
        #expect(!s.retained)
    }

    @Test func showDuringHideFadesBackFromTheCurrentOpacity() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        _ = s.hide(transition: .crossDissolve(duration: 1), retain: false, now: 1)
        let mid = s.opacity(at: 1.5)
        #expect(s.show(look, delay: 0, transition: .crossDissolve(duration: 1), now: 1.5) == .shown)
        #expect(s.state == .showing)
        #expect(abs(s.opacity(at: 1.5) - mid) < 1e-9)
        #expect(s.opacity(at: 2.5) == 1)
    }

    @Test func updateWhileIdleIsRefused() {
        var s = Session()
        let updated = s.update(look, transition: .default, now: 0)
        #expect(!updated)
        #expect(s.state == .idle)
    }

    @Test func styleChangeCrossDissolvesForAQuarterSecond() {
        var s = Session()
        var solid = look
        solid.overrides.style = .solid
        _ = s.show(solid, delay: 0, transition: .none, now: 0)
        var gradient = look
        gradient.overrides.style = .gradient
        s.update(gradient, transition: .default, now: 1)
        let start = s.frame(at: 1)
        #expect(start?.previous == solid)
        #expect(start?.crossfade == 0)
        #expect(abs((s.frame(at: 1.125)?.crossfade ?? 0) - 0.5) < 1e-9)
        #expect(s.advance(to: 1.25) == [.settled], "the dissolve's end asks for its last frame")
        #expect(s.frame(at: 1.25)?.previous == nil)
        #expect(s.frame(at: 1.25)?.look == gradient)
    }

    @Test func aChangeDissolvesWithTheTransitionItIsGiven() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        let other = SkeletonLook(layoutName: "b", layout: TestLayouts.simple)
        s.update(other, transition: .none, now: 1)
        #expect(s.frame(at: 1)?.previous == nil, "no transition: no dissolve")
        #expect(s.show(look, delay: 0, transition: .crossDissolve(duration: 2), now: 3) == .updated)
        #expect(abs((s.frame(at: 4)?.crossfade ?? 0) - 0.5) < 1e-9, "half way through a two-second dissolve")
        #expect(s.advance(to: 4.9).isEmpty)
        #expect(s.advance(to: 5) == [.settled])
    }

    @Test func colourChangeIsImmediate() {
        var s = Session()
        _ = s.show(look, delay: 0, transition: .none, now: 0)
        var tinted = look
        tinted.overrides.tint = Color(rgb: 0xE74C3C)
        s.update(tinted, transition: .default, now: 1)
        #expect(s.frame(at: 1)?.previous == nil)
        #expect(s.frame(at: 1)?.look.appearance.resolvedTint == Color(rgb: 0xE74C3C))
    }

    @Test func movementDecidesWhetherFramesAreNeeded() {
        var s = Session()
        var still = look
        still.overrides.animated = false
        _ = s.show(still, delay: 0, transition: fade, now: 0)
        #expect(s.isMoving(at: 0.1))
        _ = s.advance(to: 0.3)
        #expect(!s.isMoving(at: 0.3))
        var moving = still
        moving.overrides.animated = true
        s.update(moving, transition: .default, now: 1)
        #expect(s.isMoving(at: 1))
        var reduced = moving
        reduced.overrides.reducedMotion = true
        s.update(reduced, transition: .default, now: 2)
        #expect(!s.isMoving(at: 2))
    }
}
