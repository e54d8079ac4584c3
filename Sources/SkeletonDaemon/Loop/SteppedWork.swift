import SkeletonSystem

/// The `OffLoopWork` of a test: no thread. A job runs when it is submitted, or, while the test
/// holds the work (`holding`), when the test lets it go (`release`); a held job is past its
/// deadline when the test's clock, given to `expire`, says so. Its delivery runs on the loop's
/// next turn, as a thread's would.
public final class SteppedWork: OffLoopWork {
    private struct Held {
        var id: Int
        var submitted: Double?
        var deadline: Double
        var body: @Sendable (WorkerLocals) -> Delivery
        var expired: () -> Void
    }

    /// Jobs wait for `release` instead of running at once.
    public var holding = false
    private var held: [Held] = []
    private var finished: [Delivery] = []
    private let locals = WorkerLocals()
    private var nextID = 0
    private var lastNow: Double?
    /// Jobs run so far.
    public private(set) var jobsRun = 0

    public init() {}

    public func submit(deadline: Double, _ job: @escaping @Sendable (WorkerLocals) -> Delivery, expired: @escaping () -> Void) {
        nextID += 1
        let entry = Held(id: nextID, submitted: lastNow, deadline: deadline, body: job, expired: expired)
        if holding { held.append(entry) } else { run(entry) }
    }

    /// Runs the held jobs (their deliveries wait for the loop).
    public func release() {
        let jobs = held
        held = []
        jobs.forEach(run)
    }

    /// Jobs held now.
    public var heldCount: Int { held.count }

    private func run(_ entry: Held) {
        jobsRun += 1
        finished.append(entry.body(locals))
    }

    @discardableResult
    public func runFinished() -> Bool {
        let deliveries = finished
        finished = []
        for delivery in deliveries { delivery.apply() }
        return !deliveries.isEmpty
    }

    public func waitBriefly(seconds: Double) { runFinished() }

    public func expire(now: Double) -> Double? {
        lastNow = now
        var next: Double?
        var overdue: [Held] = []
        for index in held.indices {
            let since = held[index].submitted ?? now
            held[index].submitted = since
            if now - since >= held[index].deadline { overdue.append(held[index]) } else {
                next = min(next ?? .infinity, since + held[index].deadline)
            }
        }
        held.removeAll { entry in overdue.contains { $0.id == entry.id } }
        for entry in overdue { entry.expired() }
        return next
    }

    public var watches: [Watch] { [] }
    public var hasFinished: Bool { !finished.isEmpty }
    public var isIdle: Bool { held.isEmpty && finished.isEmpty }
}
