import SkeletonLayout
import SkeletonProtocol

/// One control connection: its line framer, and its replies in request order. A reply that
/// waits for a transition holds back the ones after it.
final class ClientConnection {
    let fd: Int32
    let number: Int
    var framer = LineFramer(limit: ClientConnection.lineLimit)
    private(set) var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    private var slots: [Slot] = []
    private var nextSlot = 0
    private var firstSlotNumber = 0
    /// Set once the daemon decided to close it (after its last reply is written).
    var closeAfterFlush = false

    static let lineLimit = 64 * 1024
    /// Unread reply bytes past which a client that does not read is disconnected.
    static let unreadLimit = 256 * 1024

    enum Slot {
        case ready([UInt8])
        case waiting
    }

    init(fd: Int32, number: Int) {
        self.fd = fd
        self.number = number
    }

    /// Queues a reply now.
    func reply(_ reply: Reply) {
        slots.append(.ready(reply.line))
        nextSlot += 1
        flushSlots()
    }

    /// Reserves the place of a reply that will come later; returns its ticket.
    func reserve() -> Int {
        slots.append(.waiting)
        nextSlot += 1
        return nextSlot - 1
    }

    func fulfil(_ ticket: Int, with reply: Reply) {
        let index = ticket - firstSlotNumber
        guard index >= 0, index < slots.count else { return }
        slots[index] = .ready(reply.line)
        flushSlots()
    }

    private func flushSlots() {
        while let first = slots.first, case .ready(let bytes) = first {
            outgoing += bytes
            slots.removeFirst()
            firstSlotNumber += 1
        }
    }

    var hasPendingOutput: Bool { outgoingOffset < outgoing.count }
    var unreadBytes: Int { outgoing.count - outgoingOffset }
    var hasWaitingReplies: Bool { !slots.isEmpty }

    /// Writes what the socket takes without blocking. False when the peer is gone.
    func writePending() -> Bool {
        while outgoingOffset < outgoing.count {
            let result: Int?
            do {
                result = try outgoing.withUnsafeBytes { buffer in
                    try SystemCalls.send(fd, UnsafeRawBufferPointer(rebasing: buffer[outgoingOffset...]))
                }
            } catch {
                return false
            }
            guard let n = result else { break }
            outgoingOffset += n
        }
        if outgoingOffset == outgoing.count {
            outgoing.removeAll(keepingCapacity: true)
            outgoingOffset = 0
        } else if outgoingOffset > 65536 {
            outgoing.removeFirst(outgoingOffset)
            outgoingOffset = 0
        }
        return true
    }
}
