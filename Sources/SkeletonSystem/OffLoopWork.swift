/// Work that can take longer than a frame (decoding a picture, shaping a long text, writing a
/// snapshot), done off the daemon's loop so that no input can stall the screen or the socket.
/// A job runs elsewhere and returns a `Delivery`, which runs on the loop on a later turn
/// (`runFinished`). `WorkerThreads` runs jobs on a thread; `SteppedWork` runs them when a test
/// says, on its manual clock.
public protocol OffLoopWork: AnyObject {
    /// Queues `job`. A job still running `deadline` seconds after it started is given up: what it
    /// delivers is dropped, and `expired` runs on the loop instead (from `expire`).
    func submit(deadline: Double, _ job: @escaping @Sendable (WorkerLocals) -> Delivery, expired: @escaping () -> Void)
    /// Runs on the loop what finished jobs delivered; true when there was any.
    @discardableResult func runFinished() -> Bool
    /// Waits at most `seconds` while jobs are queued or running, running their deliveries: a
    /// picture or text that takes less than that appears in the frame that asked for it.
    func waitBriefly(seconds: Double)
    /// Gives up the jobs past their deadline at `now` (the loop's clock); returns when the
    /// next one would be past its deadline, if one is running.
    func expire(now: Double) -> Double?
    /// What the loop watches to hear of finished jobs.
    var watches: [Watch] { get }
    /// Deliveries wait to run (the stepped loop has no descriptor to wake it).
    var hasFinished: Bool { get }
    /// Nothing queued, running or waiting to be delivered.
    var isIdle: Bool { get }
}

/// What a job made, applied on the loop. The job's thread hands it over and never touches
/// what it captured again.
public struct Delivery: @unchecked Sendable {
    public let apply: () -> Void

    public init(_ apply: @escaping () -> Void) { self.apply = apply }

    /// Nothing to apply.
    public static let nothing = Delivery {}
}
