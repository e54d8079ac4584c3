import SkeletonSystem
/// A loop that never sleeps: each turn polls the watched descriptors without waiting and
/// ignores the deadline, so that a test moves a `ManualClock` and runs turns itself.
public final class SteppedEventSource: EventSource {
    public init() {}

    public func wait(for watches: [Watch], until deadline: Double?) -> [Readiness] {
        SystemCalls.pollReady(watches, timeoutMilliseconds: 0).map { .descriptor($0.descriptor, $0.events) }
    }
}
