import SkeletonSettings
import SkeletonSystem

/// Writes `<N>message` lines to standard error, or to a sink in tests. Every message is one
/// line: control characters in it are escaped (`LogEscaping`), whatever text from outside it
/// carries. Repeated complaints go through `limited`.
public final class Logger: @unchecked Sendable {
    public var level: LogLevel
    private let sink: (@Sendable (String) -> Void)?
    /// Lines kept back while start-up is racing to its first frame (see `holdRoutineLines`).
    private var held: [String]?
    private var repeats = RepeatLimiter()
    private let clock: @Sendable () -> Double

    /// `clock`: what `limited` counts its windows in (nil: the monotonic clock).
    public init(level: LogLevel = .info, sink: (@Sendable (String) -> Void)? = nil, clock: (@Sendable () -> Double)? = nil) {
        self.level = level
        self.clock = clock ?? { SystemCalls.monotonicSeconds() }
        self.sink = sink
    }

    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        let line = "<\(messageLevel.rawValue)>" + LogEscaping.escaped(message()) + "\n"
        if held != nil && messageLevel >= .notice {
            held?.append(line)
            return
        }
        releaseHeldLines()
        emit(line)
    }

    /// Keeps notice, info and debug lines back until `releaseHeldLines()`: at boot the
    /// console or journald behind standard error competes for the CPU with the first frame.
    /// Warnings and errors are written at once, after what was held, so the order stays.
    public func holdRoutineLines() {
        if held == nil { held = [] }
    }

    public func releaseHeldLines() {
        guard let lines = held else { return }
        held = nil
        if !lines.isEmpty { emit(lines.joined()) }
    }

    private func emit(_ text: String) {
        if let sink { sink(text); return }
        StandardError.write(text)
    }

    /// A complaint that a client can repeat at will (a bad byte, a line that cannot be read):
    /// at most a few lines of one `key` per ten seconds, then a count of those left out.
    public func limited(_ messageLevel: LogLevel, key: String, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        let (admitted, dropped) = repeats.admit(key, now: clock())
        guard admitted else { return }
        log(messageLevel, message() + (dropped > 0 ? " (\(dropped) more like it not logged)" : ""))
    }

    /// Says how many complaints of each key were left out and not yet counted in a line.
    public func countUnsaidRepeats() {
        for (key, dropped) in repeats.takeUnsaid() { log(.notice, "\(dropped) more \(key) complaints were not logged") }
    }

    public func error(_ m: @autoclosure () -> String) { log(.error, m()) }
    public func warning(_ m: @autoclosure () -> String) { log(.warning, m()) }
    public func notice(_ m: @autoclosure () -> String) { log(.notice, m()) }
    public func info(_ m: @autoclosure () -> String) { log(.info, m()) }
    public func debug(_ m: @autoclosure () -> String) { log(.debug, m()) }
}

/// Unbuffered writes to file descriptor 2, whole or not at all.
public enum StandardError {
    public static func write(_ text: String) { FileDescriptor.standardError.writeAll(Array(text.utf8)) }
}
