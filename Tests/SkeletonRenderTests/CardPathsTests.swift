#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import Foundation
@testable import SkeletonDisplay
import CLibDRM
import SkeletonSystem
import Testing

/// The card nodes a DRM start tries, in the order of their numbers, as the daemon's open and the
/// boot plan's probe both walk them.
struct CardPathsTests {
    @Test func cardsInTheOrderOfTheirNumbers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["card10", "renderD128", "card2", "card", "cardX", "card0", "by-path", "card1a"] {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: nil)
        }
        #expect(DRMCalls.cardPaths(directory: directory) == ["card0", "card2", "card10"].map { directory + "/" + $0 })
        var tried: [String] = []
        DRMCalls.forEachCard(directory: directory) { path in
            tried.append(path)
            return !path.hasSuffix("card2")
        }
        #expect(tried == [directory + "/card0", directory + "/card2"])
        #expect(DRMCalls.cardPaths(directory: directory + "/missing").isEmpty)
    }

    /// Names as the kernel prints them, made without integer interpolation.
    @Test func connectorNames() {
        #expect(DRMCalls.connectorName(type: UInt32(DRM_MODE_CONNECTOR_HDMIA), typeID: 1) == "HDMI-A-1")
        #expect(DRMCalls.connectorName(type: UInt32(DRM_MODE_CONNECTOR_VIRTUAL), typeID: 10) == "Virtual-10")
        #expect(DRMCalls.connectorName(type: 9999, typeID: 4_294_967_295) == "Unknown9999-4294967295")
        #expect(String("card", number: 0) == "card0" && String("", number: 1_000_000) == "1000000")
    }
}
