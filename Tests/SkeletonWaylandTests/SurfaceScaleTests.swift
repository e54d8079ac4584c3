import SkeletonLayout
import Testing
@testable import SkeletonWayland

struct SurfaceScaleTests {
    @Test func integerScalesMultiply() {
        #expect(SurfaceScale(integer: 2).bufferSize(for: Size(width: 960, height: 540)) == Size(width: 1920, height: 1080))
        #expect(SurfaceScale(integer: 0).integer == 1, "a scale below 1 is 1")
        #expect(SurfaceScale(integer: 3).description == "3")
    }

    /// wp_fractional_scale_v1: 120ths, the buffer rounded half away from zero, the buffer scale 1.
    @Test func fractionalScalesRound() {
        let s = SurfaceScale(fractional120: 150, integer: 2)
        #expect(s.integer == 1)
        #expect(s.bufferSize(for: Size(width: 1536, height: 864)) == Size(width: 1920, height: 1080))
        #expect(s.bufferSize(for: Size(width: 3, height: 1)) == Size(width: 4, height: 1), "3 x 1.25 = 3.75, 1.25 rounds to 1")
        #expect(s.description == "1.25")
        #expect(SurfaceScale(fractional120: 180).description == "1.50")
    }
}
