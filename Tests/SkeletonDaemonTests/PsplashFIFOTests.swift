import Foundation
@testable import SkeletonDaemon
import Testing

/// The daemon removes at exit only the FIFO it made, and only while that FIFO is still at its path.
@Suite struct PsplashFIFOTests {
    func fifoDaemon(_ path: String) throws -> SteppedDaemon {
        try SteppedDaemon(layouts: ["splash": ContentCommandTests.splash], start: "splash", settings: #"{"psplash": {"fifo": "\#(path)"}}"#)
    }

    @Test func theFIFOItMadeGoesAtExit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let d = try fifoDaemon(dir + "/psplash_fifo")
        #expect(FileManager.default.fileExists(atPath: dir + "/psplash_fifo"))
        d.shutdown()
        #expect(!FileManager.default.fileExists(atPath: dir + "/psplash_fifo"))
    }

    @Test(arguments: ["a regular file", "a symlink to a file", "a symlink to /dev/zero", "a dangling symlink", "a FIFO of someone else"])
    func whatReplacedItStays(_ replacement: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/psplash_fifo"
        let d = try fifoDaemon(path)
        try FileManager.default.removeItem(atPath: path)
        switch replacement {
        case "a regular file": try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
        case "a symlink to a file":
            try "keep me".write(toFile: dir + "/target", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir + "/target")
        case "a symlink to /dev/zero": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/zero")
        case "a dangling symlink": try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir + "/nothing")
        default: #expect(mkfifo(path, 0o600) == 0)
        }
        d.shutdown()
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil || FileManager.default.fileExists(atPath: path),
                "\(replacement) is still there")
        #expect(d.logContains("is no longer the FIFO this daemon made; left in place"))
    }

    @Test func aFIFOThatWasThereBeforeStays() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/psplash_fifo", 0o600) == 0)
        let d = try fifoDaemon(dir + "/psplash_fifo")
        #expect(d.logContains("reading psplash's commands from"))
        d.shutdown()
        #expect(FileManager.default.fileExists(atPath: dir + "/psplash_fifo"))
    }
}
