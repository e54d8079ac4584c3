/// The kernel's uevents, read straight from a NETLINK_KOBJECT_UEVENT socket: no udev daemon
/// needed, so it works in an initramfs before udevd runs and on systems without one.
public final class UeventMonitor {
    public let descriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 8192)

    /// Opens the socket; throws when netlink is not available (a sandbox without it).
    public init() throws(Errno) {
        descriptor = try SystemCalls.ueventSocket()
    }

    deinit { descriptor.close() }

    /// Every event queued now, and whether some were lost (the socket overflowed): then the
    /// caller must assume anything changed.
    public func drain() -> (events: [Uevent], lost: Bool) {
        var events: [Uevent] = []
        var lost = false
        while true {
            let received = buffer.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try SystemCalls.receiveUevent(descriptor, into: raw) } }
            let count: Int
            switch received {
            case .success(let n?): count = n
            case .success(nil): return (events, lost)
            case .failure(let error):
                guard error.isOverflow else { return (events, lost) }
                lost = true
                continue
            }
            if let event = Uevent(buffer[..<count]) { events.append(event) }
        }
    }
}
