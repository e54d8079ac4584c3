@testable import SkeletonDaemon
import Testing

/// When frames are drawn: on the pacer's grid, or as soon as a display that paces frames itself
/// (a Wayland compositor's frame callbacks) takes the next one.
struct FramePacerTests {
    @Test func movingFramesKeepTheirGrid() {
        var pacer = FramePacer(maxFPS: 50)
        pacer.drew(at: 1.000, moving: true)
        #expect(!pacer.mayDraw(at: 1.015, moving: true))
        #expect(pacer.mayDraw(at: 1.020, moving: true))
        // A late frame does not shift the grid: the next one is due at 1.040 still.
        #expect(pacer.drew(at: 1.031, moving: true) == nil)
        #expect(pacer.nextFrame == 1.040)
    }

    /// A compositor at 40 Hz under a cap of 60: every callback is followed at once, never sooner
    /// than three quarters of the cap's interval after the last frame, and nothing counts as late.
    @Test func aPacingDisplayIsFollowed() {
        var pacer = FramePacer(maxFPS: 60)
        pacer.followsDisplay = true
        pacer.drew(at: 1.000, moving: true)
        #expect(pacer.pacedEarliest == 1.0125)
        #expect(!pacer.mayDraw(at: 1.010, moving: true), "the cap holds")
        #expect(pacer.mayDraw(at: 1.013, moving: true), "not the grid's 1.0167")
        for n in 1...10 {
            let callback = 1.0 + Double(n) * 0.025
            #expect(pacer.mayDraw(at: callback, moving: true))
            #expect(pacer.drew(at: callback, moving: true) == nil)
        }
        #expect(pacer.framesLate == 0)
        #expect(pacer.framesDrawn == 11)
        // Nothing moving: no paced frame is owed.
        pacer.drew(at: 1.3, moving: false)
        #expect(pacer.pacedEarliest == nil)
    }
}
