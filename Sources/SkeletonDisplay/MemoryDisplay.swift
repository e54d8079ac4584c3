import SkeletonProtocol
import SkeletonPicture
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// An output in RAM, for machines without a display and for tests. With a snapshot path it
/// writes the picture as a PNG when it changed, at most every `snapshotInterval` seconds,
/// atomically (a temporary file renamed over the old one); with `work`, the PNG is encoded and
/// written off the loop from a copy, one at a time.
public final class MemoryDisplay: Display, DisplayOutput {
    public let name = "memory"
    public let backendName = "memory"
    public let size: Size
    public let buffer: PixelBuffer
    public let snapshotPath: String?
    public let snapshotInterval: Double
    public private(set) var framesPresented = 0
    public private(set) var snapshotsWritten = 0
    public private(set) var lastSnapshotError: String?
    private var dirty = false
    private var lastSnapshot: Double?
    /// Where snapshots are encoded and written; nil: at once, by the caller.
    public var work: (any OffLoopWork)?
    private var snapshotInFlight = false
    /// Seconds a snapshot may take off the loop before it is given up.
    static let snapshotDeadline = 10.0

    public init(size: Size, snapshotPath: String? = nil, snapshotInterval: Double = 0.25) {
        self.size = size
        self.buffer = PixelBuffer(size: size)
        self.snapshotPath = snapshotPath
        self.snapshotInterval = snapshotInterval
    }

    public var outputs: [any DisplayOutput] { [self] }
    public var shadow: Canvas { buffer.canvas }
    public var canPresent: Bool { true }
    public var eventDescriptor: FileDescriptor? { nil }
    public var problem: String? { lastSnapshotError }

    public func present(damage: [PixelRect], mirrored: Bool) throws(DisplayError) -> Bool {
        guard !damage.isEmpty else { return true }
        framesPresented += 1
        dirty = true
        return true
    }

    public func handleEvents() throws(DisplayError) {}

    public func tick(now: Double) -> Double? {
        guard dirty, snapshotPath != nil else { return nil }
        if let last = lastSnapshot, now - last < snapshotInterval { return last + snapshotInterval }
        // One at a time: the next is taken once the one being written is done.
        if snapshotInFlight { return now + snapshotInterval }
        writeSnapshot()
        lastSnapshot = now
        return nil
    }

    /// Writes the snapshot now if the picture changed since the last one (after the one being
    /// written off the loop, so that the last picture is the one left).
    public func flush() {
        if snapshotInFlight { work?.waitBriefly(seconds: Self.snapshotDeadline) }
        guard dirty else { return }
        dirty = false
        written(Self.write(buffer, to: snapshotPath))
    }

    private func writeSnapshot() {
        guard let path = snapshotPath else { return }
        dirty = false
        guard let work else {
            written(Self.write(buffer, to: snapshotPath))
            return
        }
        let copy = Handover(display: self, picture: PixelBuffer(size: size))
        copy.picture.canvas.copy(copy.picture.canvas.bounds, from: buffer.canvas)
        snapshotInFlight = true
        work.submit(deadline: Self.snapshotDeadline, { _ in
            let problem = Self.write(copy.picture, to: path)
            return Delivery { copy.display?.written(problem) }
        }, expired: { [weak self] in
            self?.written("cannot write the snapshot \(path): not written within \(Int(Self.snapshotDeadline)) s")
        })
    }

    /// The picture's copy goes to the worker, the result comes back to the display.
    private struct Handover: @unchecked Sendable {
        weak var display: MemoryDisplay?
        let picture: PixelBuffer
    }

    /// Encodes and writes `picture`; what went wrong, if anything.
    private static func write(_ picture: PixelBuffer, to path: String?) -> String? {
        guard let path else { return nil }
        do {
            try ImageFile.write(picture.canvas, to: path, format: .png)
            return nil
        } catch {
            return "cannot write the snapshot \(path): \(error)"
        }
    }

    private func written(_ problem: String?) {
        snapshotInFlight = false
        if problem == nil { snapshotsWritten += 1 }
        lastSnapshotError = problem
    }

    /// What lies beneath comes back; its snapshot is written by `tick` at the same rate as any
    /// other (a storm of hides and shows must not rewrite the file at every one).
    public func release(retainingPicture: Bool) {
        if !retainingPicture {
            buffer.canvas.fill(buffer.canvas.bounds, with: 0)
            dirty = true
        }
    }

    public func reacquire() throws(DisplayError) {}

    public func close() { flush() }

    public var status: OutputStatus {
        var s = OutputStatus()
        s.mode = size.description
        s.snapshot = snapshotPath
        if snapshotPath != nil { s.snapshotsWritten = snapshotsWritten }
        return s
    }
}
