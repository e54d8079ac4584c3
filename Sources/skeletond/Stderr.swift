import SkeletonDaemon
import SkeletonLog
import SkeletonSettings

/// Writes lines to standard error, unbuffered.
func printError(_ lines: [String]) {
    StandardError.write(lines.map { $0 + "\n" }.joined())
}
