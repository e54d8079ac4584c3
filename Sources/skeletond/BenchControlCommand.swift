import ArgumentParser
import SkeletonTools

struct BenchControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-control",
        abstract: "Measure control round trips (ping, update) against a running, animating daemon."
    )

    @Option(help: "Directory holding default.json, the animated layout to show.")
    var layouts = "config/layouts"

    @Option(help: "Concurrent clients for the second round.")
    var clients = 32

    @Option(help: "Requests per measurement.")
    var requests = 20000

    @Flag(help: "Exit 1 when ping p99 is 2 ms or more (5 ms beside a client flooding requests unread), a frame was late, or the idle daemon woke up.")
    var check = false

    func run() throws {
        let result: ControlBenchmark.Result
        do {
            result = try ControlBenchmark.run(executable: "/proc/self/exe", layoutsDirectory: layouts,
                                              clients: clients, requests: requests)
        } catch {
            printError([error.description])
            throw ExitCode(1)
        }
        print(result.lines.joined(separator: "\n"))
        if check && (result.pingP99Milliseconds >= 2 || result.floodPingP99Milliseconds >= 5 || result.framesLate > 0
                     || result.idleWakeupsPerSecond > 0) {
            throw ExitCode(1)
        }
    }
}
