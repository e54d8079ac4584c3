import SkeletonSettings
import SkeletonSystem
/// The real loop: ppoll(2) over the watched descriptors and a signalfd for SIGTERM, SIGINT,
/// SIGHUP and the VT's SIGUSR1 and SIGUSR2 (`VTSwitch`), with its timeout worked out from CLOCK_MONOTONIC (the `SystemClock`'s time base) at
/// the call: one system call a wait.
public final class PollEventSource: EventSource {
    private let signalFD: FileDescriptor

    /// Blocks the five signals for the process and takes them through a signalfd.
    public init() throws(Errno) {
        signalFD = try SystemCalls.signalDescriptor(vtSignals: true)
    }

    deinit {
        signalFD.close()
    }

    public func wait(for watches: [Watch], until deadline: Double?) -> [Readiness] {
        var result: [Readiness] = []
        for entry in SystemCalls.pollReady(watches, first: Watch(descriptor: signalFD, events: .readable), until: deadline) {
            if entry.descriptor == signalFD {
                while let signal = SystemCalls.readSignal(entry.descriptor) { result.append(.signal(signal)) }
            } else {
                result.append(.descriptor(entry.descriptor, entry.events))
            }
        }
        return result
    }
}
