/// Splits psplash's FIFO stream into commands: each ends with a NUL or a newline. A command
/// longer than `limit` bytes is dropped whole (reported once), never split into others.
public struct PsplashFramer: Sendable {
    public static let limit = 4096
    private var pending: [UInt8] = []
    private var discarding = false

    public init() {}

    /// What `bytes` complete: commands, and one error per overlong command.
    public mutating func push(_ bytes: some Collection<UInt8>) -> [Result<PsplashCommand, PsplashError>] {
        var results: [Result<PsplashCommand, PsplashError>] = []
        for byte in bytes {
            if byte == 0 || byte == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else if !pending.isEmpty {
                    results.append(PsplashCommand.parse(String(decoding: pending, as: UTF8.self)))
                }
                pending.removeAll(keepingCapacity: true)
            } else if !discarding {
                pending.append(byte)
                if pending.count > Self.limit {
                    results.append(.failure(PsplashError("a command longer than \(Self.limit) bytes was dropped")))
                    pending.removeAll(keepingCapacity: true)
                    discarding = true
                }
            }
        }
        return results
    }
}
