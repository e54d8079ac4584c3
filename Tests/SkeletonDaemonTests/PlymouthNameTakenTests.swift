import Foundation
@testable import SkeletonDaemon
import SkeletonLog
import SkeletonProtocol
import SkeletonSystem
import Testing

/// Plymouth's socket name already taken (plymouthd runs, or another daemon): a second
/// `PlymouthServer` on it fails with an error that says so, which `Daemon.start` quotes in its
/// warning before going on without Plymouth's socket; the server that holds the name goes on
/// answering.
@Suite struct PlymouthNameTakenTests {
    @Test func aTakenNameIsAnErrorAndTheServerHoldingItGoesOn() throws {
        let name = "/skeletond-test-\(UUID().uuidString.prefix(8))"
        let lines = LogLines()
        let logger = lines.logger()
        let first = try PlymouthServer(name: name, logger: logger)
        defer { first.close() }
        first.execute = { _, _ in .ack }
        let error = #expect(throws: Errno.self) { try PlymouthServer(name: name, logger: logger) }
        #expect(error?.rawValue == EADDRINUSE)
        // What the daemon's warning says after "cannot listen on @NAME".
        #expect(error.map { "\($0)" } == "bind @\(name): Address already in use")
        // The first still holds the name and answers on it.
        let client = try TestClient(path: "@" + name)
        client.send(PlymouthRequest(command: .ping).bytes)
        var reply: [UInt8] = []
        for _ in 0..<50 where reply.isEmpty {
            var watches: [Watch] = []
            first.addWatches(to: &watches)
            for ready in SystemCalls.pollReady(watches, timeoutMilliseconds: 0) { _ = first.handle(ready.descriptor, ready.events) }
            first.runQueuedRequests()
            reply += client.readBytes(1, seconds: 0)
        }
        #expect(reply == [6])
    }
}
