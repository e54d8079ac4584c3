import ArgumentParser
import SkeletonSystem
import SkeletonTools

struct BenchControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-control",
        abstract: "Measure control round trips (ping, update) against a running, animating daemon.",
        discussion: """
            With --attacks, run the hostile inputs instead (floods of Plymouth, psplash and control requests, a PNG bomb, the largest picture, a long combining text, layouts at the limits), each against a fresh daemon on the memory output at \
            640x400, with a second connection pinging every 10 ms: the worst ping beside the quiet one, frames late, \
            memory, and whether the attack's result was applied. Attacks: \(Attack.allCases.map(\.rawValue).joined(separator: ", ")). \
            With --memory, send --commands commands of a kiosk's uptime back to back (updates with new texts and values, shows \
            of the bundled layouts with dissolves, hides, deactivate/reactivate, status) to a daemon on the memory output at \
            640x400: its resident size, descriptors and threads after the first tenth and at the end. Exits 1 when the size \
            grew by more than \(MemoryBenchmark.allowedGrowthKiB) KiB, the descriptors or threads changed, or a command failed.
            """
    )

    @Option(help: "Directory holding default.json, the animated layout to show.")
    var layouts = "config/layouts"

    @Option(help: "Concurrent clients for the second round.")
    var clients = 32

    @Option(help: "Requests per measurement.")
    var requests = 20000

    @Flag(help: "Exit 1 when ping p99 is 2 ms or more (5 ms beside a client flooding requests unread), a frame was late, or the idle daemon woke up; with --attacks, when an attack broke a promise.")
    var check = false

    @Flag(help: "Run the attacks (all, or those named) instead of the round trips.")
    var attacks = false

    @Flag(help: "Measure whether the daemon's memory stays bounded over many commands instead.")
    var memory = false

    @Option(help: "With --memory: the commands to send.")
    var commands = 1_000_000

    @Option(help: "With --memory: the daemon's executable (skeletond-initramfs, an installed skeletond; default: this one).")
    var daemon: String?

    @Argument(help: "With --attacks: the attacks to run (all when none).")
    var names: [String] = []

    func validate() throws {
        if !names.isEmpty && !attacks { throw ValidationError("attack names go with --attacks") }
        if attacks && memory { throw ValidationError("--attacks and --memory are separate runs") }
        if commands < 10 { throw ValidationError("--commands: at least 10") }
        if let unknown = names.first(where: { Attack(rawValue: $0) == nil }) {
            throw ValidationError("unknown attack \"\(unknown)\": expected one of \(Attack.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() throws {
        if attacks { return try runAttacks() }
        if memory { return try runMemory() }
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

    private func runMemory() throws {
        let result: MemoryBenchmark.Result
        do {
            result = try MemoryBenchmark.run(executable: daemon ?? "/proc/self/exe", layoutsDirectory: layouts, commands: commands)
        } catch {
            printError([error.description])
            throw ExitCode(1)
        }
        print(result.lines.joined(separator: "\n"))
        if !result.bounded { throw ExitCode(1) }
    }

    /// Each attack in turn, a line each as it ends.
    private func runAttacks() throws {
        // The daemons run through /bin/sh, where /proc/self/exe would be the shell.
        let executable = SystemCalls.executablePath() ?? "/proc/self/exe"
        var broken = false
        for attack in names.isEmpty ? Attack.allCases : names.compactMap(Attack.init(rawValue:)) {
            do {
                let result = try AttackBenchmark.run(attack, executable: executable)
                print(result.line)
                broken = broken || !result.held
            } catch {
                print("\(attack.rawValue): \(error.lines.first ?? "failed")")
                printError(error.lines)
                broken = true
            }
        }
        if check && broken { throw ExitCode(1) }
    }
}
