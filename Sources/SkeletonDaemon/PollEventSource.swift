import SkeletonSettings
import SkeletonSystem
/// The real loop: poll(2) over the watched descriptors, a signalfd for SIGTERM, SIGINT and
/// SIGHUP, and a CLOCK_MONOTONIC timerfd armed at the deadline (the `SystemClock`'s time base).
public final class PollEventSource: EventSource {
    private let signalFD: FileDescriptor
    private let timerFD: FileDescriptor

    /// Blocks the three signals for the process and takes them through a signalfd.
    public init() throws(Errno) {
        signalFD = try SystemCalls.signalDescriptor()
        do { timerFD = try SystemCalls.timerDescriptor() } catch {
            signalFD.close()
            throw error
        }
    }

    deinit {
        signalFD.close()
        timerFD.close()
    }

    public func wait(for watches: [Watch], until deadline: Double?) -> [Readiness] {
        try? SystemCalls.armTimer(timerFD, at: deadline)
        var ready = SystemCalls.pollReady([Watch(descriptor: signalFD, events: .readable), Watch(descriptor: timerFD, events: .readable)] + watches,
                                          timeoutMilliseconds: -1)
        var result: [Readiness] = []
        for entry in ready where entry.descriptor == signalFD {
            while let signal = SystemCalls.readSignal(entry.descriptor) { result.append(.signal(signal)) }
        }
        if ready.contains(where: { $0.descriptor == timerFD }) { SystemCalls.drainTimer(timerFD) }
        ready.removeAll { $0.descriptor == signalFD || $0.descriptor == timerFD }
        return result + ready.map { .descriptor($0.descriptor, $0.events) }
    }
}
