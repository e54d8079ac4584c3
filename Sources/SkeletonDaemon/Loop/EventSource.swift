import SkeletonSettings
import SkeletonSystem

/// What woke the loop.
public enum Readiness: Sendable, Equatable {
    case descriptor(FileDescriptor, PollEvents)
    case signal(Int32)
}

/// Where the daemon's loop waits: descriptors, signals and a deadline on the daemon's clock.
/// `PollEventSource` sleeps in poll(2); a stepped source lets tests run the loop one turn at a
/// time on a manual clock.
public protocol EventSource: AnyObject {
    /// Waits until a watched descriptor is ready, a signal arrives or `deadline` passes (nil:
    /// no deadline); returns what is ready.
    func wait(for watches: [Watch], until deadline: Double?) -> [Readiness]
}
