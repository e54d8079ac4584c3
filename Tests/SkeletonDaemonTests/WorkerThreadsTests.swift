import Foundation
import SkeletonSystem
import Testing

/// The worker thread of the daemon: jobs in order, their results applied only on the loop's
/// side, an overdue job given up while a new thread takes the queue.
@Suite struct WorkerThreadsTests {
    /// What the loop's side saw, in order (only the test's thread appends).
    final class Seen: @unchecked Sendable {
        var events: [String] = []
    }

    @Test func jobsRunInOrderAndTheirResultsAreAppliedOnlyByTheLoop() throws {
        let work = try WorkerThreads()
        defer { work.close() }
        let seen = Seen()
        for i in 0..<5 {
            work.submit(deadline: 10, { _ in Delivery { seen.events.append("job \(i)") } }, expired: { seen.events.append("expired \(i)") })
        }
        #expect(seen.events.isEmpty, "nothing is applied before the loop asks")
        work.waitBriefly(seconds: 10)
        #expect(seen.events == (0..<5).map { "job \($0)" })
        #expect(work.isIdle)
    }

    /// A SIGTERM sent to the daemon must reach its loop's signalfd: a worker thread that took it
    /// would end the process with it (the e2e tests' exit 143).
    @Test func workersBlockEverySignal() throws {
        let work = try WorkerThreads()
        defer { work.close() }
        final class Answer: @unchecked Sendable { var blocks: Bool? }
        let answer = Answer()
        work.submit(deadline: 10, { _ in
            let blocks = WorkerThreads.blocksTermination
            return Delivery { answer.blocks = blocks }
        }, expired: {})
        work.waitBriefly(seconds: 10)
        #expect(answer.blocks == true)
    }

    @Test func anOverdueJobIsGivenUpAndTheJobsAfterItRunOnANewThread() throws {
        let work = try WorkerThreads()
        defer { work.close() }
        var gate: [Int32] = [0, 0], started: [Int32] = [0, 0]
        #expect(pipe(&gate) == 0 && pipe(&started) == 0)
        defer { (gate + started).forEach { close($0) } }
        let seen = Seen()
        let (gateRead, startedWrite) = (gate[0], started[1])
        work.submit(deadline: 5, { _ in
            var byte: UInt8 = 1
            _ = write(startedWrite, &byte, 1)
            _ = read(gateRead, &byte, 1)
            return Delivery { seen.events.append("the overdue job's result") }
        }, expired: { seen.events.append("given up") })
        work.submit(deadline: 5, { _ in Delivery { seen.events.append("the next job") } }, expired: {})
        var byte: UInt8 = 0
        #expect(read(started[0], &byte, 1) == 1, "the first job runs")
        #expect(work.expire(now: SystemCalls.monotonicSeconds() + 1) != nil, "not overdue yet: its deadline is the next")
        #expect(seen.events.isEmpty)
        #expect(work.expire(now: SystemCalls.monotonicSeconds() + 6) == nil)
        #expect(seen.events == ["given up"])
        work.waitBriefly(seconds: 10)
        #expect(seen.events == ["given up", "the next job"], "a new thread took the queue while the first is stuck")
        #expect(write(gate[1], &byte, 1) == 1)
        for _ in 0..<1000 where !work.isIdle { _ = poll(nil, 0, 10) }
        work.runFinished()
        #expect(work.isIdle)
        #expect(seen.events == ["given up", "the next job"], "the overdue job's result is dropped")
    }
}
