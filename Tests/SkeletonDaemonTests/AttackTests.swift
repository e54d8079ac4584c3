import Foundation
import SkeletonTools
import Testing

/// The release daemon the attacks run on.
private let attackExecutable = ProcessInfo.processInfo.environment["SKELETOND_ATTACK_EXECUTABLE"]

/// Hostile inputs against a real `skeletond run` process (this build's) on the
/// memory output at 640x400, each while another connection pings every 10 ms: the ping is
/// answered within 50 ms at every moment of the attack, frames stay on time (the daemon's own
/// `framesLate`, at most one in 50 drawn, or one in a short attack), the peak memory stays within the attack's budget,
/// and the attack's result is applied afterwards. `skeletond bench-control --attacks` runs the
/// same code and prints the figures; each failure message here is its line.
///
/// They run on a release build, `$SKELETOND_ATTACK_EXECUTABLE` (`make test` gives them the static
/// one, `scripts/attack-tests.sh`): the debug build draws a frame at the limits, or a turn of 32
/// Plymouth requests, too slowly for 60 fps whatever its loop does.
@Suite(.serialized, .enabled(if: attackExecutable != nil,
                             "the attacks need a release build: SKELETOND_ATTACK_EXECUTABLE (scripts/attack-tests.sh)"))
struct AttackTests {
    static var executable: String { attackExecutable ?? builtExecutable("skeletond") }

    func expectHeld(_ attack: Attack, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try AttackBenchmark.run(attack, executable: Self.executable)
        // Through Bools, so that a failure prints the figures' line and not the whole result.
        let ping = result.pingHeld, frames = result.framesHeld, memory = result.memoryHeld, applied = result.applied
        #expect(ping, "ping: \(result.line)", sourceLocation: sourceLocation)
        #expect(frames, "frames: \(result.line)", sourceLocation: sourceLocation)
        #expect(memory, "memory: \(result.line)", sourceLocation: sourceLocation)
        #expect(applied, "result: \(result.line)", sourceLocation: sourceLocation)
    }

    @Test func aThousandPlymouthQuitShowPairsInOneWrite() throws { try expectHeld(.plymouthPairs) }

    @Test func aWriterThatKeepsPsplashsFIFOFull() throws { try expectHeld(.psplashWriter) }

    @Test func tenMegabytesOfLinesIntoPsplashsFIFO() throws { try expectHeld(.psplashLines) }

    @Test func tenMegabytesWithoutANewlineIntoPsplashsFIFO() throws { try expectHeld(.psplashNoNewline) }

    @Test func aPNGWhoseImageDataInflatesToGigabytes() throws { try expectHeld(.pngBomb) }

    @Test func theLargestPictureAllowed() throws { try expectHeld(.hugePicture) }

    @Test func aLabelOfTenThousandCombiningAccents() throws { try expectHeld(.combiningLabel) }

    @Test func anAnimatedLayoutAtTheLimits() throws { try expectHeld(.limitsLayout) }

    @Test func fiveHundredHideShowPairsPipelined() throws { try expectHeld(.pipelinedHideShow) }

    @Test func aLayoutFileAtTheNodeLimit() throws { try expectHeld(.hugeLayout) }

    @Test func aLayoutFileOverTheSizeLimit() throws { try expectHeld(.oversizedLayout) }
}
