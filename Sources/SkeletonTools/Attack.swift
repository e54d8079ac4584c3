/// Hostile inputs, each run against a real daemon on the memory output
/// at 640x400 while another connection pings it (`AttackBenchmark`). What each must leave
/// behind is in `AttackCheck`.
public enum Attack: String, CaseIterable, Sendable {
    /// 1,000 Plymouth `quit` + `show-splash` pairs in one write.
    case plymouthPairs = "plymouth-pairs"
    /// A writer that keeps psplash's FIFO full for 2 s (`MSG` lines), then `MSG final`.
    case psplashWriter = "psplash-writer"
    /// 10 MB of `MSG` lines into psplash's FIFO, then `MSG final`.
    case psplashLines = "psplash-lines"
    /// 10 MB without a newline or NUL into psplash's FIFO, then `MSG final`.
    case psplashNoNewline = "psplash-no-newline"
    /// A 16x16 PNG whose image data inflates to 4 GiB of zeros (a 4 MB file), shown in an image node.
    case pngBomb = "png-bomb"
    /// An 8192x8192 PNG of one colour (the largest picture allowed), shown in an image node.
    case hugePicture = "huge-picture"
    /// A label set three times to a letter and 10,000 combining acute accents.
    case combiningLabel = "combining-label"
    /// An animated layout at the documented limits (4,096 shapes), shown for 2 s.
    case limitsLayout = "limits-layout"
    /// One client pipelining 500 hide/show pairs in one write.
    case pipelinedHideShow = "pipelined-hide-show"
    /// A layout file at the node limit (16,384 nodes, 4,096 leaf views) just under the file
    /// size limit (1 MiB), shown by name.
    case hugeLayout = "huge-layout"
    /// The same nodes indented and every key spelt out: about 3 MB, over the file size limit,
    /// shown by name (refused with the size, or shown: either way the loop goes on).
    case oversizedLayout = "oversized-layout"

    /// What the attack is, for people.
    public var summary: String {
        switch self {
        case .plymouthPairs: "1,000 Plymouth quit + show-splash pairs in one write"
        case .psplashWriter: "a writer that keeps psplash's FIFO full for 2 s"
        case .psplashLines: "10 MB of MSG lines into psplash's FIFO"
        case .psplashNoNewline: "10 MB without a newline into psplash's FIFO"
        case .pngBomb: "a 16x16 PNG inflating to 4 GiB of zeros (a 4 MB file)"
        case .hugePicture: "an 8192x8192 PNG of one colour"
        case .combiningLabel: "a label of \"a\" and 10,000 combining accents, 3 updates"
        case .limitsLayout: "an animated layout at the limits (4,096 shapes), 2 s"
        case .pipelinedHideShow: "one client pipelining 500 hide/show pairs"
        case .hugeLayout: "a 1 MiB layout at the node limit (16,384 nodes)"
        case .oversizedLayout: "a 3 MB layout at the node limit (16,384 nodes)"
        }
    }

    /// The longest a ping on another connection may wait, at any moment of the attack.
    public static let pingLimitMilliseconds = 50.0

    /// Late frames allowed while an attack runs: one in 50 of those drawn meanwhile, and at
    /// least one (a frame late once is not a stall; a stall shows in the ping, since a late
    /// frame is counted once however long it was late).
    public static func lateFramesAllowed(framesDrawn: Int) -> Int { max(1, framesDrawn / 50) }

    /// How far the daemon's peak resident memory may rise above its size before the attack:
    /// 64 MiB, and for the largest picture its decoded pixels (256 MiB) on top.
    public var memoryBudgetMiB: Int { self == .hugePicture ? 64 + 256 : 64 }

    /// How much more the daemon may keep once an attack is over: 48 MiB (a layout of 16,384
    /// nodes is kept, about 28 MiB with its frames; the largest picture's 256 MiB must not be).
    public static let retainedBudgetMiB = 48
}
