import SkeletonSettings
import SkeletonSystem
/// Monotonic time in seconds. The daemon reads it; tests step a manual one.
public protocol MonotonicClock: AnyObject, Sendable {
    var now: Double { get }
}

/// CLOCK_MONOTONIC.
public final class SystemClock: MonotonicClock {
    public init() {}
    public var now: Double { SystemCalls.monotonicSeconds() }
}

/// A clock that moves only when told, so that tests step animations frame by frame.
public final class ManualClock: MonotonicClock, @unchecked Sendable {
    public private(set) var now: Double

    public init(now: Double = 0) { self.now = now }

    public func advance(by seconds: Double) { now += seconds }
    public func set(_ time: Double) { now = time }
}
