import Synchronization

/// The real `OffLoopWork`: jobs run one after another, in the order given, on a thread of their
/// own at a lower priority than the loop (nice 10), which hears of finished jobs through an
/// eventfd(2) it polls. A job past its deadline keeps its thread until it ends (nothing can stop
/// libpng or HarfBuzz halfway) while a new thread takes the jobs after it; at most one thread is
/// left running that way, so a second overdue job waits for it and memory stays bounded.
public final class WorkerThreads: OffLoopWork, @unchecked Sendable {
    private struct Job {
        var id: Int
        var deadline: Double
        var body: @Sendable (WorkerLocals) -> Delivery
    }

    private struct Running {
        var job: Int
        var deadline: Double
        var since: Double
        var expired = false
    }

    private struct State {
        var queue: [Job] = []
        /// The thread that takes jobs from the queue; an older one is finishing an overdue job.
        var generation = 0
        var running: [Int: Running] = [:]
        var leftRunning = 0
        var finished: [Delivery] = []
        var closed = false
    }

    private let state = Mutex(State())
    /// Counts jobs queued; the current thread waits on it.
    private let queued: FileDescriptor
    /// Counts jobs finished; the loop polls it.
    private let done: FileDescriptor
    private var nextID = 0
    /// `expired` callbacks by job, kept on the loop's side.
    private var onExpiry: [Int: () -> Void] = [:]
    private let niceness: Int32

    public init(niceness: Int32 = 10) throws(Errno) {
        queued = try SystemCalls.eventCounter(blocking: true)
        do { done = try SystemCalls.eventCounter(blocking: false) } catch {
            queued.close()
            throw error
        }
        watches = [Watch(descriptor: done, events: .readable)]
        self.niceness = niceness
        try startThread(generation: 0)
    }

    /// Whether the calling thread blocks SIGTERM (a worker must: see `SystemCalls.startThread`).
    public static var blocksTermination: Bool { SystemCalls.threadBlocks(SystemCalls.terminationSignal) }

    /// Stops the threads once their jobs are done (a test's; the daemon's end with the process).
    public func close() {
        state.withLock { $0.closed = true }
        SystemCalls.addToCounter(queued)
    }

    public func submit(deadline: Double, _ job: @escaping @Sendable (WorkerLocals) -> Delivery, expired: @escaping () -> Void) {
        nextID += 1
        onExpiry[nextID] = expired
        let id = nextID
        state.withLock { $0.queue.append(Job(id: id, deadline: deadline, body: job)) }
        SystemCalls.addToCounter(queued)
    }

    @discardableResult
    public func runFinished() -> Bool {
        SystemCalls.takeCounter(done)
        let deliveries = state.withLock { s -> [Delivery] in
            defer { s.finished = [] }
            return s.finished
        }
        for delivery in deliveries { delivery.apply() }
        return !deliveries.isEmpty
    }

    public func waitBriefly(seconds: Double) {
        let end = SystemCalls.monotonicSeconds() + seconds
        while true {
            runFinished()
            // A job that ended since `runFinished` took the deliveries left its own behind.
            let busy = state.withLock { !$0.queue.isEmpty || !$0.finished.isEmpty || $0.running.values.contains { !$0.expired } }
            let left = end - SystemCalls.monotonicSeconds()
            guard busy, left > 0 else { return }
            _ = SystemCalls.pollReady([Watch(descriptor: done, events: .readable)], timeoutMilliseconds: Int32(max(1, (left * 1000).rounded(.up))))
        }
    }

    public func expire(now: Double) -> Double? {
        var overdue: [Int] = []
        var abandon: Int?
        let next = state.withLock { s -> Double? in
            var next: Double?
            for (generation, r) in s.running where !r.expired {
                if now - r.since >= r.deadline {
                    s.running[generation]?.expired = true
                    overdue.append(r.job)
                    if generation == s.generation && s.leftRunning == 0 {
                        s.generation += 1
                        s.leftRunning += 1
                        abandon = s.generation
                    }
                } else {
                    next = min(next ?? .infinity, r.since + r.deadline)
                }
            }
            return next
        }
        if let generation = abandon { try? startThread(generation: generation) }
        for id in overdue { onExpiry.removeValue(forKey: id)?() }
        return next
    }

    public let watches: [Watch]

    public var hasFinished: Bool { state.withLock { !$0.finished.isEmpty } }

    public var isIdle: Bool { state.withLock { $0.queue.isEmpty && $0.running.isEmpty && $0.finished.isEmpty } }

    private func startThread(generation: Int) throws(Errno) {
        try SystemCalls.startThread(niceness: niceness) { [self] in work(as: generation) }
    }

    /// A thread's life: takes jobs while it is the current generation; a thread whose overdue
    /// job was given up ends after it.
    private func work(as generation: Int) {
        let locals = WorkerLocals()
        while true {
            let next = state.withLock { s -> (job: Job?, stop: Bool) in
                if s.closed { return (nil, true) }
                guard let job = s.queue.first else { return (nil, false) }
                s.queue.removeFirst()
                s.running[generation] = Running(job: job.id, deadline: job.deadline, since: SystemCalls.monotonicSeconds())
                return (job, false)
            }
            if next.stop { return }
            guard let job = next.job else {
                SystemCalls.takeCounter(queued)
                continue
            }
            let delivery = job.body(locals)
            let (delivered, carryOn) = state.withLock { s -> (Bool, Bool) in
                let expired = s.running.removeValue(forKey: generation)?.expired ?? false
                // An overdue job's result is dropped; its expiry was delivered instead.
                if !expired { s.finished.append(delivery) }
                if generation == s.generation { return (!expired, true) }
                s.leftRunning -= 1
                return (!expired, false)
            }
            if delivered { SystemCalls.addToCounter(done) }
            if !carryOn { return }
        }
    }
}
