import SkeletonSettings
import SkeletonSystem

/// The loop of a test: it never sleeps. Each wait polls the watched descriptors without
/// blocking (those of a `MemoryTransport` by asking it) and remembers what the daemon asked for (its descriptors and its deadline), so a
/// test that moves a `ManualClock` runs a turn only when the real loop would wake: a
/// descriptor is ready or the deadline has come. A daemon that forgets to ask for its next
/// frame then stands still in tests as it would on a screen.
public final class SteppedEventSource: EventSource {
    /// The deadline of the last wait (nil: the loop would sleep until a descriptor is ready).
    public private(set) var deadline: Double?
    private var watches: [Watch] = []
    /// False when the last wait returned something: the real loop handles it and goes on into
    /// its next turn without sleeping.
    private var asleep = false
    /// How many times the loop waited: its turns.
    public private(set) var waits = 0

    /// Connections in memory: their descriptors' readiness comes from it, not from poll(2).
    private let memory: MemoryTransport?
    /// The work off the loop, whose finished jobs wake the loop as a worker thread's eventfd would.
    private let work: SteppedWork?

    public init(memory: MemoryTransport? = nil, work: SteppedWork? = nil) {
        self.memory = memory
        self.work = work
    }

    /// Signals a test sent (`deliver`), returned by the next wait as the signalfd's would be.
    private var signals: [Int32] = []

    /// Queues `signal` for the loop, as the kernel would send it to the process.
    public func deliver(_ signal: Int32) { signals.append(signal) }

    public func wait(for watches: [Watch], until deadline: Double?) -> [Readiness] {
        self.watches = watches
        self.deadline = deadline
        waits += 1
        let ready = signals.map { Readiness.signal($0) } + readiness(of: watches).map { Readiness.descriptor($0.descriptor, $0.events) }
        signals = []
        asleep = ready.isEmpty
        return ready
    }

    private func readiness(of watches: [Watch]) -> [Watch] {
        guard let memory else { return SystemCalls.pollReady(watches, timeoutMilliseconds: 0) }
        let real = watches.filter { !memory.owns($0.descriptor) }
        return memory.readiness(of: watches) + (real.isEmpty ? [] : SystemCalls.pollReady(real, timeoutMilliseconds: 0))
    }

    /// Whether the real loop, asleep in its last wait, would wake at `now`.
    public func wakes(at now: Double) -> Bool {
        if !asleep || work?.hasFinished == true || !signals.isEmpty { return true }
        if let deadline, deadline <= now { return true }
        return !readiness(of: watches).isEmpty
    }
}
