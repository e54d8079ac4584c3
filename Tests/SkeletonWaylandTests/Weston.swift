import Foundation
import SkeletonPicture
import SkeletonRender

/// A real weston (Debian's, 10) on its headless backend with the pixman renderer, in a runtime
/// directory of its own: the compositor the Wayland output's tests draw into, and
/// weston-screenshooter (allowed by `--debug`) to read back what it shows.
final class Weston: @unchecked Sendable {
    let runtimeDirectory: URL
    let socketName = "wayland-test"
    let process = Process()
    private let logFile: URL

    init(width: Int = 640, height: Int = 400, scale: Int = 1) throws {
        runtimeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("skeletond-weston-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        logFile = runtimeDirectory.appendingPathComponent("weston.log")
        // No fade from black at start and no zoom as a window maps: a screenshot shows the frame.
        let config = runtimeDirectory.appendingPathComponent("weston.ini")
        try "[shell]\nstartup-animation=none\nanimation=none\nclose-animation=none\nfocus-animation=none\n"
            .write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        process.arguments = ["--backend=headless-backend.so", "--use-pixman", "--config=\(config.path)", "--socket=\(socketName)",
                             "--width=\(width)", "--height=\(height)", "--scale=\(scale)", "--idle-time=0", "--debug",
                             "--log=\(logFile.path)"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The socket's file comes with bind(), before listen(): a client in between is refused
        // ("no compositor answers"), so wait until a connection is taken.
        let socket = runtimeDirectory.appendingPathComponent(socketName).path
        let deadline = Date().addingTimeInterval(20)
        while !Self.accepts(socket) {
            guard process.isRunning, Date() < deadline else {
                throw WestonError("weston did not listen on its socket within 20 s: \(log)")
            }
            usleep(10_000)
        }
    }

    /// Whether a connection to the Unix socket at `path` is taken (it is closed at once).
    private static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: runtimeDirectory)
    }

    /// XDG_RUNTIME_DIR and WAYLAND_DISPLAY for this compositor's clients.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        env["WAYLAND_DISPLAY"] = socketName
        return env
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// What the compositor's output shows now, read back by weston-screenshooter.
    func screenshot() throws -> PixelBuffer {
        let directory = runtimeDirectory.appendingPathComponent("shot-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shooter = Process()
        shooter.executableURL = URL(fileURLWithPath: "/usr/bin/weston-screenshooter")
        shooter.currentDirectoryURL = directory
        shooter.environment = environment
        shooter.standardOutput = FileHandle.nullDevice
        shooter.standardError = FileHandle.nullDevice
        try shooter.run()
        shooter.waitUntilExit()
        guard shooter.terminationStatus == 0,
              let file = try FileManager.default.contentsOfDirectory(atPath: directory.path).first(where: { $0.hasSuffix(".png") }) else {
            throw WestonError("weston-screenshooter failed (status \(shooter.terminationStatus)): \(log)")
        }
        return try ImageFile.readPNG(directory.appendingPathComponent(file).path)
    }
}

struct WestonError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Where two pictures differ, ignoring the unused byte: nil when they are equal.
func firstDifference(_ a: Canvas, _ b: Canvas) -> String? {
    guard a.width == b.width, a.height == b.height else { return "sizes \(a.width)x\(a.height) and \(b.width)x\(b.height)" }
    for y in 0..<a.height {
        for x in 0..<a.width where a[x, y] & 0xFF_FFFF != b[x, y] & 0xFF_FFFF {
            return "at (\(x), \(y)): \(String(a[x, y] & 0xFF_FFFF, radix: 16)) against \(String(b[x, y] & 0xFF_FFFF, radix: 16))"
        }
    }
    return nil
}
