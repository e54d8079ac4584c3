import SkeletonLayout

/// What one attack did to the daemon: the worst ping beside the quiet one, the frames, the
/// memory, and whether the attack's work was applied afterwards.
public struct AttackResult: Sendable {
    public var attack: Attack
    /// The longest ping round trip on another connection from the attack's start to a moment
    /// after its result was applied (a ping still unanswered at the end counts its wait).
    public var worstPingMilliseconds: Double
    /// When the worst ping was sent, in seconds from the attack's start.
    public var worstPingAt: Double
    /// The longest ping round trip of the same pinger on the same daemon, with no attack (1 s).
    public var quietWorstPingMilliseconds: Double
    /// Pings answered during the attack.
    public var pings: Int
    /// Frames the daemon counted late, and drawn, from the attack's start to its end.
    public var framesLate: Int
    public var framesDrawn: Int
    /// The same over the quiet second.
    public var quietFramesLate: Int
    public var quietFramesDrawn: Int
    /// The daemon's resident memory (VmRSS) before the attack, its peak during it (VmHWM), and after.
    public var rssBeforeKiB: Int
    public var rssPeakKiB: Int
    public var rssAfterKiB: Int
    /// Whether the result of the attack's work was applied (the message, the picture, the layout...).
    public var applied: Bool
    /// What was found: why it counts as applied, or what was missing.
    public var detail: String
    /// Seconds from the attack's start to its result applied (or to giving up).
    public var seconds: Double

    /// How far the peak rose above the size before, in MiB.
    public var peakGrowthMiB: Int { max(0, rssPeakKiB - rssBeforeKiB) >> 10 }

    public var pingHeld: Bool { worstPingMilliseconds < Attack.pingLimitMilliseconds }
    public var framesHeld: Bool { framesLate <= Attack.lateFramesAllowed(framesDrawn: framesDrawn) }
    /// How far the size after the attack stayed above the size before, in MiB.
    public var retainedMiB: Int { max(0, rssAfterKiB - rssBeforeKiB) >> 10 }

    public var memoryHeld: Bool { peakGrowthMiB <= attack.memoryBudgetMiB && retainedMiB <= Attack.retainedBudgetMiB }
    /// Every promise kept: the ping, the frames, the memory, the result.
    public var held: Bool { pingHeld && framesHeld && memoryHeld && applied }

    /// One line for `bench-control --attacks`.
    public var line: String {
        let name = attack.rawValue.padding(to: 20)
        return "\(name) worst ping \(worstPingMilliseconds.fixed(1)) ms (quiet \(quietWorstPingMilliseconds.fixed(1)) ms), "
            + "late \(framesLate)/\(framesDrawn) frames (quiet \(quietFramesLate)/\(quietFramesDrawn)), RSS \(rssBeforeKiB >> 10) -> peak \(rssPeakKiB >> 10) -> \(rssAfterKiB >> 10) MiB, "
            + "\(applied ? "applied" : "NOT applied") in \(seconds.fixed(1)) s: \(detail)\(held ? "" : "  [FAILS: \(failures.joined(separator: ", "))]")"
    }

    /// The promises broken, for people.
    public var failures: [String] {
        var broken: [String] = []
        if !pingHeld { broken.append("ping \(worstPingMilliseconds.fixed(0)) ms at \(worstPingAt.fixed(2)) s >= \(Attack.pingLimitMilliseconds.fixed(0)) ms") }
        if !framesHeld { broken.append("\(framesLate) late > \(Attack.lateFramesAllowed(framesDrawn: framesDrawn))") }
        if peakGrowthMiB > attack.memoryBudgetMiB { broken.append("peak +\(peakGrowthMiB) MiB > \(attack.memoryBudgetMiB) MiB") }
        if retainedMiB > Attack.retainedBudgetMiB { broken.append("+\(retainedMiB) MiB kept after > \(Attack.retainedBudgetMiB) MiB") }
        if !applied { broken.append("not applied") }
        return broken
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
