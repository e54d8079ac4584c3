import SkeletonLayout
import SkeletonRender
import SkeletonSystem

/// The daemon's `SpriteSource`: pictures and texts are made off the loop (`OffLoopWork`), each by
/// the worker thread's own `ContentSprites`, so that a huge picture or a long text never stalls
/// the screen or the socket. A frame waits for them at most `grace` seconds in all; what is not
/// ready by then shows as its skeleton, and `arrived` tells the loop to draw again when it is.
/// A sprite not made within `deadline` seconds is given up: its node stays a skeleton and the
/// reason is reported, once.
public final class BackgroundSprites: SpriteSource {
    private let work: any OffLoopWork
    private let bgrtDirectory: String
    private var made = SpriteCache<Key>(spareBytes: ContentSprites.spareBytes)
    private var pending: Set<Key> = []
    private var reported: Set<SpriteError> = []
    /// Told each problem once (the daemon logs it).
    public var report: (SpriteError) -> Void
    /// Real seconds the frames of one loop turn may wait for sprites being made.
    public var grace = 0.01
    private var graceEnds: Double?
    /// Sprites arrived since the last `takeArrivals`.
    private var arrived = false

    /// Seconds a sprite may take before it is given up.
    public static let deadline = 10.0

    private struct Key: Hashable, Sendable {
        var content: SpriteContent
        var box: PixelRect
        var outputSize: Size
    }

    /// Lets a job's delivery reach this object, which only the loop touches.
    private struct Receiver: @unchecked Sendable {
        weak var sprites: BackgroundSprites?
    }

    public init(work: any OffLoopWork, bgrtDirectory: String = "/sys/firmware/acpi/bgrt", report: @escaping (SpriteError) -> Void = { _ in }) {
        self.work = work
        self.bgrtDirectory = bgrtDirectory
        self.report = report
    }

    public func sprite(for item: SpriteItem, outputSize: Size) -> Result<Sprite, SpriteError>? {
        let key = Key(content: item.content, box: ContentSprites.box(item.rect), outputSize: outputSize)
        if let known = made.result(for: key) { return known }
        if pending.insert(key).inserted { submit(item, key: key) }
        let now = SystemCalls.monotonicSeconds()
        let ends = graceEnds ?? now + grace
        graceEnds = ends
        if ends > now { work.waitBriefly(seconds: ends - now) }
        return made.result(for: key)
    }

    /// A new turn of the loop: its frames may wait for sprites again.
    public func newTurn() {
        graceEnds = nil
        made.beginRound()
    }

    /// True once when sprites arrived since the last call: renderers that waited for them are
    /// to be made again.
    public func takeArrivals() -> Bool {
        defer { arrived = false }
        return arrived
    }

    /// Sprites arrived that `takeArrivals` has not told of yet.
    public var hasArrivals: Bool { arrived }

    /// Sprites still being made.
    public var pendingCount: Int { pending.count }

    private func submit(_ item: SpriteItem, key: Key) {
        let receiver = Receiver(sprites: self)
        let bgrt = bgrtDirectory
        work.submit(deadline: Self.deadline, { locals in
            // Kept by the loop's cache alone: a second holder would never let it see a sprite as spare.
            let result = locals.value { ContentSprites(bgrtDirectory: bgrt) }.makeAfresh(item, outputSize: key.outputSize)
            return Delivery { receiver.sprites?.finish(key, result) }
        }, expired: { [weak self] in
            let seconds = Int(Self.deadline)
            self?.finish(key, .failure(SpriteError(nodePath: item.nodePath, reason: "not made within \(seconds) s, given up")))
        })
    }

    private func finish(_ key: Key, _ result: Result<Sprite, SpriteError>) {
        guard pending.remove(key) != nil else { return }
        made.keep(result, for: key)
        arrived = true
        if case .failure(let error) = result, reported.insert(error).inserted { report(error) }
    }
}
