import SkeletonSettings
import SkeletonSystem


/// Writes `<N>message` lines to standard error, or to a sink in tests.
public final class Logger: @unchecked Sendable {
    public var level: LogLevel
    private let sink: (@Sendable (String) -> Void)?
    /// Lines kept back while start-up is racing to its first frame (see `holdRoutineLines`).
    private var held: [String]?

    public init(level: LogLevel = .info, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.sink = sink
    }

    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        let line = "<\(messageLevel.rawValue)>" + message() + "\n"
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
