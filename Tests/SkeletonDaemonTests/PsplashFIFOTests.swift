import Foundation
@testable import SkeletonDaemon
import SkeletonLog
import SkeletonProtocol
import SkeletonSystem
import Testing

/// psplash's FIFO, with no daemon: closing it removes only the FIFO it made, and only while that
/// FIFO is still at its path; whatever was put there since stays, and the log says so.
@Suite struct PsplashFIFOTests {
    /// A directory of its own, the FIFO's path in it and the lines its logger wrote.
    final class Place {
        let directory: String
        let path: String
        let lines = LogLines()
        let logger: Logger

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString.prefix(8))").path
            path = directory + "/psplash_fifo"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            logger = lines.logger()
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func logContains(_ text: String) -> Bool { lines.contain(text) }

        /// Whether something of the kind `type` (S_IFIFO, S_IFREG, S_IFLNK) is at the path, not followed.
        func holds(_ type: mode_t) -> Bool {
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == type
        }
    }

    /// Writes `bytes` into the FIFO as `psplash-write` does, then runs the turn the daemon's loop
    /// would (its watch ready, read, carried out); returns the commands carried out.
    func psplashWrite(_ bytes: [UInt8], to fifo: PsplashFIFO) throws -> [PsplashCommand] {
        let writer = open(fifo.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(writer >= 0, "the FIFO takes a writer")
        #expect(bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == bytes.count)
        close(writer)
        var carried: [PsplashCommand] = []
        fifo.execute = { carried.append($0) }
        var watches: [Watch] = []
        fifo.addWatches(to: &watches)
        let ready = SystemCalls.pollReady(watches, timeoutMilliseconds: 0)
        #expect(ready.count == 1, "the FIFO's watch is ready")
        for watch in ready { #expect(fifo.handle(watch.descriptor)) }
        fifo.runQueuedCommands()
        return carried
    }

    @Test func theFIFOItMadeGoesWhenItCloses() throws {
        let place = try Place()
        let fifo = try PsplashFIFO(path: place.path, logger: place.logger)
        #expect(place.holds(S_IFIFO), "made at its path")
        #expect(try psplashWrite(Array("MSG made here\0".utf8), to: fifo) == [.message("made here")])
        fifo.close()
        #expect(!FileManager.default.fileExists(atPath: place.path))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: place.path)) == nil)
        #expect(!place.logContains("is no longer the FIFO this daemon made"))
    }

    @Test(arguments: ["a regular file", "a symlink to a file", "a symlink to /dev/zero", "a dangling symlink", "a FIFO of someone else"])
    func whatReplacedItStays(_ replacement: String) throws {
        let place = try Place()
        let path = place.path, dir = place.directory
        let fifo = try PsplashFIFO(path: path, logger: place.logger)
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
        let replaced = try #require(SystemCalls.identity(atPath: path))
        fifo.close()
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil || FileManager.default.fileExists(atPath: path),
                "\(replacement) is still there")
        #expect(SystemCalls.identity(atPath: path) == replaced, "\(replacement) is the very file put there")
        if replacement == "a regular file" || replacement == "a symlink to a file" {
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        }
        #expect(place.logContains("psplash: \(path) is no longer the FIFO this daemon made; left in place"))
    }

    @Test func aFIFOThatWasThereBeforeStays() throws {
        let place = try Place()
        #expect(mkfifo(place.path, 0o600) == 0)
        let before = try #require(SystemCalls.identity(atPath: place.path))
        let fifo = try PsplashFIFO(path: place.path, logger: place.logger)
        // Its commands are read from the FIFO that was there.
        #expect(try psplashWrite(Array("PROGRESS 40\0".utf8), to: fifo) == [.progress(40)])
        fifo.close()
        #expect(place.holds(S_IFIFO))
        #expect(SystemCalls.identity(atPath: place.path) == before)
        #expect(!place.logContains("is no longer the FIFO this daemon made"))
    }
}
