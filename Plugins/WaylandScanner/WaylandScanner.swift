import Foundation
import PackagePlugin

/// Generates the client code of the Wayland protocols the output speaks beyond the core one,
/// from the XML of Debian's wayland-protocols, with libwayland's own wayland-scanner: for each,
/// `include/NAME-client-protocol.h` (the requests and listeners) and `NAME-protocol.c` (the
/// interface tables), compiled into the target. The target's own C code, which includes those
/// headers, is `skeleton_wayland.c.in`, compiled as a copy made after them: the build orders a
/// compile after the commands whose outputs are its inputs, and a source file of the target has
/// none, so it could be compiled while the headers were still being made.
@main
struct WaylandScanner: BuildToolPlugin {
    /// Paths below wayland-protocols' data directory.
    static let protocols = [
        "stable/xdg-shell/xdg-shell.xml",
        "stable/viewporter/viewporter.xml",
        "staging/fractional-scale/fractional-scale-v1.xml",
    ]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let scanner = try Self.findScanner()
        let protocolsDirectory = Self.protocolsDirectory()
        let out = context.pluginWorkDirectoryURL
        // One command makes both files: the header is consumed by no build step of its own,
        // so a command that made only the header would never run.
        let script = #"mkdir -p "$(dirname "$4")" && "$1" client-header "$2" "$4" && "$1" private-code "$2" "$3""#
        var headers: [URL] = []
        var commands: [Command] = Self.protocols.map { relative in
            let xml = protocolsDirectory.appending(path: relative)
            let name = xml.deletingPathExtension().lastPathComponent
            let code = out.appending(path: "\(name)-protocol.c")
            let header = out.appending(path: "include/\(name)-client-protocol.h")
            headers.append(header)
            return .buildCommand(displayName: "wayland-scanner \(name)", executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: ["-c", script, "sh", scanner.path, xml.path, code.path, header.path],
                                 inputFiles: [xml, scanner], outputFiles: [code, header])
        }
        let template = target.directoryURL.appending(path: "skeleton_wayland.c.in")
        let copy = out.appending(path: "skeleton_wayland.c")
        commands.append(.buildCommand(displayName: "skeleton_wayland.c after the protocols' headers", executable: URL(fileURLWithPath: "/bin/cp"),
                                      arguments: [template.path, copy.path], inputFiles: [template] + headers, outputFiles: [copy]))
        return commands
    }

    /// wayland-scanner from PATH (Debian's libwayland-dev).
    static func findScanner() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appending(path: "wayland-scanner")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ScannerMissing()
    }

    /// `pkg-config --variable=pkgdatadir wayland-protocols`, else Debian's place for it.
    static func protocolsDirectory() -> URL {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--variable=pkgdatadir", "wayland-protocols"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if process.terminationStatus == 0, !text.isEmpty { return URL(fileURLWithPath: text) }
        }
        return URL(fileURLWithPath: "/usr/share/wayland-protocols")
    }
}

struct ScannerMissing: Error, CustomStringConvertible {
    var description: String { "wayland-scanner is not on PATH: install Debian's libwayland-dev (scripts/install-deps.sh does)" }
}
