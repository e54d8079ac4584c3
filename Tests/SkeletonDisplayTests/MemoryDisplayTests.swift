import SkeletonPicture
import Foundation
import SkeletonDisplay
import SkeletonLayout
import SkeletonRender
import Testing

@Suite("The memory output")
struct MemoryDisplayTests {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString.prefix(8)).png").path

    @Test func snapshotsFollowChangesAtMostEveryInterval() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let display = MemoryDisplay(size: Size(width: 4, height: 3), snapshotPath: path, snapshotInterval: 0.25)
        #expect(display.tick(now: 0) == nil, "nothing presented, nothing to write")
        #expect(display.snapshotsWritten == 0)
        display.shadow.fill(display.shadow.bounds, with: 0x336699)
        #expect(try display.present(damage: []))
        #expect(display.framesPresented == 0, "an empty damage is no frame")
        #expect(try display.present(damage: [display.shadow.bounds]))
        #expect(display.framesPresented == 1)
        #expect(display.tick(now: 1) == nil)
        #expect(display.snapshotsWritten == 1)
        #expect(try ImageFile.readPNG(path).pixels == [UInt32](repeating: 0x336699, count: 12))
        display.shadow.fill(PixelRect(x: 0, y: 0, width: 1, height: 1), with: 0xFFFFFF)
        #expect(try display.present(damage: [PixelRect(x: 0, y: 0, width: 1, height: 1)]))
        #expect(display.tick(now: 1.1) == 1.25, "too soon: the next snapshot is due at 1.25")
        #expect(display.snapshotsWritten == 1)
        #expect(display.tick(now: 1.25) == nil)
        #expect(display.snapshotsWritten == 2)
        #expect(try ImageFile.readPNG(path)[0, 0] == 0xFFFFFF)
        #expect(display.tick(now: 2) == nil)
        #expect(display.snapshotsWritten == 2, "unchanged: not written again")
    }

    @Test func releasingBlanksThePictureUnlessItIsRetained() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let display = MemoryDisplay(size: Size(width: 2, height: 2), snapshotPath: path)
        display.shadow.fill(display.shadow.bounds, with: 0x0000FF)
        _ = try display.present(damage: [display.shadow.bounds])
        display.release(retainingPicture: true)
        #expect(display.tick(now: 1) == nil)
        #expect(try ImageFile.readPNG(path).pixels == [UInt32](repeating: 0x0000FF, count: 4))
        display.release(retainingPicture: false)
        // The blank picture waits for its turn: at most one snapshot every 0.25 s, hides included.
        #expect(display.tick(now: 1.1) == 1.25)
        #expect(try ImageFile.readPNG(path).pixels == [UInt32](repeating: 0x0000FF, count: 4))
        #expect(display.tick(now: 1.25) == nil)
        #expect(try ImageFile.readPNG(path).pixels == [0, 0, 0, 0])
        #expect(display.status.mode == "2x2" && display.status.snapshot == path)
    }
}
