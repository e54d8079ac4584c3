import Foundation
import SkeletonLog

/// The lines a logger wrote in a test, as the journal would get them (`<N>` and the text).
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }

    /// Whether a line holds `text`.
    func contain(_ text: String) -> Bool { all.contains { $0.contains(text) } }

    /// A logger at debug level writing here; `clock` counts `limited`'s windows.
    func logger(clock: @escaping @Sendable () -> Double = { 100 }) -> Logger {
        Logger(level: .debug, sink: { [self] in add($0) }, clock: clock)
    }
}
