import SkeletonSettings
import SkeletonSystem

/// Monitors coming and going on the open DRM display: the kernel's uevents for its card, read
/// from the netlink socket itself (no udev daemon needed, so it works from the initramfs on),
/// gathered so that a storm of them (a flapping connector) costs one rescan per
/// `settleSeconds`, not one per event. Between events it costs no wake-up.
final class OutputHotplug {
    let card: String
    private let monitor: UeventMonitor
    /// When the connectors are to be looked at again; nil while nothing is pending.
    private(set) var rescanDue: Double?
    /// When the first event of the pending batch arrived: the hotplug time counts from it.
    private var firstEventAt: Double?

    /// How long events are gathered before the connectors are looked at.
    static let settleSeconds = 0.05

    /// What a batch of events asks for.
    enum Outcome: Equatable {
        case nothing
        /// Some connector may have changed: a rescan is due (`rescanDue`).
        case rescan
        /// The card itself went away.
        case cardRemoved
    }

    init(card: String) throws(Errno) {
        self.card = card
        self.monitor = try UeventMonitor()
    }

    var descriptor: FileDescriptor { monitor.descriptor }

    /// Reads what arrived. Events lost to an overflowing socket count as a change.
    func receive(now: Double) -> Outcome {
        let (events, lost) = monitor.drain()
        if events.contains(where: { $0.removesCard(card) }) { return .cardRemoved }
        guard lost || events.contains(where: { $0.concernsCard(card) }) else { return .nothing }
        if rescanDue == nil {
            rescanDue = now + Self.settleSeconds
            firstEventAt = now
        }
        return .rescan
    }

    /// The rescan, when due at `now`: the time its first event arrived.
    func takeDueRescan(now: Double) -> Double? {
        guard let due = rescanDue, now >= due else { return nil }
        rescanDue = nil
        defer { firstEventAt = nil }
        return firstEventAt ?? due
    }
}
