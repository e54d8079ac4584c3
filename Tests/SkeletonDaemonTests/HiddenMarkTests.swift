import Foundation
import SkeletonBoot
@testable import SkeletonDaemon
@testable import SkeletonSettings
import Testing

/// The hidden mark belongs to one socket and one boot.
@Suite struct HiddenMarkTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mark-\(UUID().uuidString.prefix(8))").path

    init() throws { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }

    @Test func aMarkIsNamedAfterItsSocketAndHoldsTheBoot() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bootID = directory + "/boot_id"
        try "1111-aaaa\n".write(toFile: bootID, atomically: true, encoding: .utf8)
        let mark = HiddenMark(socketPath: directory + "/one.sock", bootIDPath: bootID)
        let other = HiddenMark(socketPath: directory + "/two.sock", bootIDPath: bootID)
        #expect(mark.path == directory + "/one.sock.hidden")
        #expect(mark.state == .absent)
        try mark.set()
        #expect(mark.state == .set)
        #expect(other.state == .absent, "another daemon's socket in the same directory has its own mark")
        try "2222-bbbb\n".write(toFile: bootID, atomically: true, encoding: .utf8)
        #expect(mark.state == .stale, "a mark from another boot does not count")
        try mark.clear()
        #expect(mark.state == .absent)
    }

    @Test func aMarkFromAnEarlierBootIsRemovedAndTheSkeletonShown() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: nil, storage: .disk)
        let mark = HiddenMark(socketPath: d.socketPath)
        try "not this boot\n".write(toFile: mark.path, atomically: true, encoding: .utf8)
        let second = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default", sharing: d)
        #expect(second.daemon.screen.session.state == .showing)
        #expect(second.logContains("hidden in an earlier boot"))
        #expect(mark.state == .absent)
    }

    @Test func aMarkOfThisBootKeepsTheSkeletonHiddenAndSaysWhy() throws {
        let d = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default", storage: .disk)
        let c = try d.connect()
        #expect(d.request(c, #"{"command": "hide", "transition": {"kind": "none"}}"#)?["hidden"] == true)
        #expect(HiddenMark(socketPath: d.socketPath).state == .set)
        let second = try SteppedDaemon(layouts: ["default": TestLayouts.simpleText], start: "default", sharing: d)
        #expect(second.daemon.screen.session.state == .idle)
        #expect(second.logContains("not showing default: the skeleton was hidden in this boot"))
    }
}
