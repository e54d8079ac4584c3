#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes lines to standard error (file descriptor 2), unbuffered.
func printError(_ lines: [String]) {
    var text = Array(lines.map { $0 + "\n" }.joined().utf8)
    var offset = 0
    while offset < text.count {
        let n = text.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return }
        offset += n
    }
    text.removeAll()
}
