import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import SkeletonSystem

/// One control connection: the lines it sent and not yet run, and its replies in request
/// order. A reply that waits for a transition holds back the ones after it.
final class ClientConnection {
    let fd: FileDescriptor
    private let transport: any ControlTransport
    let number: Int
    var framer = LineFramer(limit: ClientConnection.lineLimit)
    /// Lines read but not run yet: a client is read again only once they are done.
    private var inbox: [LineFramer.Event] = []
    private var inboxStart = 0
    private(set) var outgoing: [UInt8] = []
    private var outgoingOffset = 0
    private var slots: [Slot] = []
    private var nextSlot = 0
    private var firstSlotNumber = 0
    /// Set once the daemon decided to close it (after its last reply is written).
    var closeAfterFlush = false
    /// Set when it was dropped, for replies that were still owed to it.
    var isClosed = false

    static let lineLimit = 64 * 1024
    /// Bytes read from one client per loop turn, so that one busy client cannot hold up others.
    static let readChunk = 16 * 1024
    /// Lines run for one client per loop turn.
    static let linesPerTurn = 32
    /// Unread reply bytes at which no more of its lines are run (and it is not read) until the
    /// client reads: a client that sends and never reads stalls itself, not the daemon.
    static let outputHighWater = 64 * 1024
    /// Unread reply bytes past which a client is disconnected: reached only by a single reply
    /// larger than this on top of the high-water mark.
    static let unreadLimit = 4 * 1024 * 1024

    enum Slot {
        case ready([UInt8])
        case waiting
    }

    /// The connecting process's user, from its credentials (nil when they could not be read).
    let uid: UInt32?

    init(fd: FileDescriptor, transport: any ControlTransport, number: Int, uid: UInt32?) {
        self.fd = fd
        self.transport = transport
        self.number = number
        self.uid = uid
    }

    /// Takes bytes read from the socket; their complete lines wait in the inbox.
    func received(_ bytes: ArraySlice<UInt8>) {
        inbox += framer.append(bytes)
    }

    var hasQueuedLines: Bool { inboxStart < inbox.count }

    /// True while its replies are read fast enough to run more of its lines.
    var isBelowHighWater: Bool { unreadBytes < Self.outputHighWater }

    /// The next line to run, when it may run now.
    func nextLine() -> LineFramer.Event? {
        guard hasQueuedLines, isBelowHighWater else { return nil }
        defer {
            inboxStart += 1
            if inboxStart == inbox.count {
                inbox.removeAll(keepingCapacity: true)
                inboxStart = 0
            }
        }
        return inbox[inboxStart]
    }

    /// Every line still queued, whatever is unread (the peer is gone: nobody reads the replies,
    /// but what it asked for is still done).
    func takeAllLines() -> [LineFramer.Event] {
        defer {
            inbox.removeAll()
            inboxStart = 0
        }
        return Array(inbox[inboxStart...])
    }

    /// Read it again: its lines are done, its replies are being read, and it has not closed.
    var wantsInput: Bool { !closeAfterFlush && !hasQueuedLines && isBelowHighWater }

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
    /// Nothing more will be written to it or run for it.
    var isDone: Bool { closeAfterFlush && !hasPendingOutput && !hasWaitingReplies && !hasQueuedLines }

    /// Writes what the connection takes without blocking. False when the peer is gone.
    func writePending() -> Bool {
        while outgoingOffset < outgoing.count {
            let result: Int?
            do {
                result = try outgoing.withUnsafeBytes { buffer in
                    try transport.send(fd, UnsafeRawBufferPointer(rebasing: buffer[outgoingOffset...]))
                }
            } catch {
                return false
            }
            guard let n = result else { break }
            outgoingOffset += n
        }
        if outgoingOffset == outgoing.count {
            outgoing.removeAll(keepingCapacity: outgoing.capacity <= Self.outputHighWater * 2)
            outgoingOffset = 0
        } else if outgoingOffset > 65536 {
            outgoing.removeFirst(outgoingOffset)
            outgoingOffset = 0
        }
        return true
    }
}
