#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SkeletonProtocol
import SkeletonPicture
import SkeletonSystem
import SkeletonLayout
import SkeletonRender

/// An output in RAM, for machines without a display and for tests. With a snapshot path it
/// writes the picture as a PNG when it changed, at most every `snapshotInterval` seconds,
/// atomically (a temporary file renamed over the old one).
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
        writeSnapshot()
        lastSnapshot = now
        return nil
    }

    /// Writes the snapshot now if the picture changed since the last one.
    public func flush() {
        if dirty { writeSnapshot() }
    }

    private func writeSnapshot() {
        guard let path = snapshotPath else { return }
        dirty = false
        do {
            try ImageFile.write(buffer.canvas, to: path, format: .png)
            snapshotsWritten += 1
            lastSnapshotError = nil
        } catch {
            lastSnapshotError = "cannot write the snapshot \(path): \(error)"
        }
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
        return s
    }
}
