import Foundation
@testable import SkeletonDaemon
@testable import SkeletonSettings
import SkeletonLayout
import SkeletonProtocol
import Testing

/// Plymouth's boot protocol: the bytes Plymouth's clients send and the bytes of the replies.
/// What each request does is `PlymouthOnScreenTests`'; the socket's faults `PlymouthFaultTests`'
/// (Debian's own `plymouth` client is driven against the daemon in
/// Tests/plymouth/test_plymouth_client.py).
@Suite struct PlymouthTests {
    @Test func requestsAreCutFromBytesHoweverTheyArrive() {
        var framer = PlymouthFramer()
        let ping = PlymouthRequest(command: .ping)
        let status = PlymouthRequest(command: .update, argument: Array("fsck 40%".utf8))
        #expect(ping.bytes == [0x50, 0])
        #expect(status.bytes == [0x55, 2, 9] + Array("fsck 40%".utf8) + [0])
        let stream = ping.bytes + status.bytes + PlymouthRequest(command: .quit, argument: [1]).bytes + [0x5A, 0]
        // One byte at a time: nothing until a request is whole.
        var got: [PlymouthRequest] = []
        for byte in stream {
            framer.append([byte])
            while let r = framer.next() { got.append(r) }
        }
        #expect(got == [ping, status, PlymouthRequest(command: .quit, argument: [1]), PlymouthRequest(command: .unknown(0x5A))])
        #expect(framer.bufferedCount == 0)
        // All at once: the same.
        framer.append(stream)
        var again: [PlymouthRequest] = []
        while let r = framer.next() { again.append(r) }
        #expect(again == got)
        // quit without --retain-splash: an empty argument.
        framer.append([0x51, 2, 1, 0])
        #expect(framer.next() == PlymouthRequest(command: .quit, argument: []))
    }

    @Test func repliesAreTheBytesPlymouthdWrites() {
        #expect(PlymouthReply.ack.bytes == [6])
        #expect(PlymouthReply.nak.bytes == [0x15])
        #expect(PlymouthReply.noAnswer.bytes == [5])
        #expect(PlymouthReply.answer("ab").bytes == [2, 2, 0, 0, 0, 0x61, 0x62])
    }

    static let layouts = ["a": TransitionEndTests.still("a", x: 20)]
}
