#if canImport(FoundationEssentials)
import FoundationEssentials
#endif
import SkeletonPicture
import Foundation
import Testing
import SkeletonDisplay
import SkeletonRender

/// The package's root directory, found from this file's path.
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3) // Tests/SkeletonToolTests/CLITestSupport.swift
    return parts.joined(separator: "/")
}()

/// The built `skeletond`: next to the test bundle (the products directory), else in .build/debug.
let skeletondPath: String? = {
    var directories: [String] = []
    directories.append(Bundle.main.bundleURL.path)
    if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent().path) }
    if let first = CommandLine.arguments.first { directories.append(URL(fileURLWithPath: first).deletingLastPathComponent().path) }
    directories.append(packageRoot + "/.build/debug")
    for directory in directories {
        let candidate = directory + "/skeletond"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
           FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
    }
    return nil
}()

struct CommandResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}

/// A scratch directory for one test, removed by `cleanUp()`.
final class Scratch {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.path + "/skeletond-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a file in the scratch directory and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Runs `skeletond` with `arguments` in this directory, output captured in files (no pipe deadlocks).
    func skeletond(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        guard let binary = skeletondPath else {
            Issue.record("cannot find the skeletond binary next to the test bundle or in .build/debug: build it first",
                         sourceLocation: sourceLocation)
            throw CancellationError()
        }
        let outPath = path + "/.stdout", errPath = path + "/.stderr"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        let stdout = String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self)
        let stderr = String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        return CommandResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Reads a PNG the tool wrote.
    func png(_ name: String) throws -> PixelBuffer { try ImageFile.readPNG(file(name)) }
}

/// Expects no sign of a crash or a stack trace in an error output.
func expectNoStackTrace(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) {
    for marker in ["Fatal error", "Stack dump", "backtrace", "Backtrace", "Current stack trace", "Swift runtime failure", "0x0000"] {
        #expect(!result.stderr.contains(marker), "stderr looks like a crash: \(result.stderr)", sourceLocation: sourceLocation)
    }
    #expect(result.status == 1, "a user mistake exits 1: \(result)", sourceLocation: sourceLocation)
}

func hex(_ p: UInt32) -> String {
    let digits = Array("0123456789ABCDEF")
    return "#" + (0..<6).reversed().map { String(digits[Int((p >> (4 * UInt32($0))) & 15)]) }.joined()
}

/// Expects a pixel within `tolerance` levels per channel of `rgb`.
func expectPixel(_ image: PixelBuffer, _ x: Int, _ y: Int, _ rgb: UInt32, tolerance: Int = 0,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    let p = image[x, y]
    var d = 0
    for shift: UInt32 in [16, 8, 0] {
        let a = Int((p >> shift) & 0xFF), b = Int((rgb >> shift) & 0xFF)
        d = max(d, abs(a - b))
    }
    #expect(d <= tolerance, "pixel (\(x), \(y)) is \(hex(p)), expected \(hex(rgb)) ± \(tolerance)", sourceLocation: sourceLocation)
}
