import SkeletonSystem

/// The loop's own state: what it waits on, whether it goes on, and the watch list it fills at
/// each turn (kept between turns: the sources' lists joined with `+` made several arrays a frame).
struct DaemonLoop {
    /// nil until `start` makes the real one (poll(2) with signals and a timer); tests give a
    /// `SteppedEventSource`.
    var events: (any EventSource)?
    var running = true
    var watches: [Watch] = []
}
