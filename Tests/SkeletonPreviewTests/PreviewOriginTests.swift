import Foundation
import SkeletonPreview
import Synchronization
import Testing

/// The preview's WebSocket carries the layout and its frames: any page open in the user's
/// browser could open it on 127.0.0.1, so only the preview's own origin may (browsers always
/// send `Origin` on an upgrade). Raw upgrade requests, as a browser sends them.
struct PreviewOriginTests {
    static let layout = """
        {"name": "tiny", "canvas": {"width": 40, "height": 20},
         "root": {"kind": "view", "children": [{"kind": "view", "frame": [2, 2, 20, 10]}]}}
        """

    /// The status line of a WebSocket upgrade of `/live` with `origin` (none: nil). Reads without
    /// blocking: the server answers on Swift's concurrency threads, which a blocked read would hold.
    func upgradeStatus(port: Int, origin: String?) async throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var request = "GET /live HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        try #require(send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        for _ in 0..<2000 where !received.contains(UInt8(ascii: "\n")) {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n == 0 || (n < 0 && errno != EAGAIN) { break }
            if n > 0 { received += buffer[0..<n] } else { try await Task.sleep(for: .milliseconds(5)) }
        }
        return String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
    }

    @Test func onlyThePreviewsOwnOriginMayOpenTheWebSocket() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("preview-origin-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.layout.write(toFile: directory + "/tiny.json", atomically: true, encoding: .utf8)

        let address = Mutex<String?>(nil)
        let logged = Mutex<[String]>([])
        var preview = PreviewServer(layoutPath: directory + "/tiny.json", port: 0)
        preview.log = { line in logged.withLock { $0.append(line) } }
        let server = Task { [preview] in try await preview.run { ready in address.withLock { $0 = ready } } }
        defer { server.cancel() }
        var url: String?
        for _ in 0..<500 where url == nil {
            url = address.withLock { $0 }
            try await Task.sleep(for: .milliseconds(10))
        }
        let port = try #require(url.flatMap { Int($0.split(separator: ":").last?.prefix { $0.isNumber } ?? "") })

        #expect(try await upgradeStatus(port: port, origin: "http://127.0.0.1:\(port)") == "HTTP/1.1 101 Switching Protocols")
        #expect(try await upgradeStatus(port: port, origin: "http://localhost:\(port)") == "HTTP/1.1 101 Switching Protocols")
        #expect(logged.withLock { $0 }.isEmpty)

        let refused = ["https://evil.example", "http://127.0.0.1:\(port + 1)", "null"]
        for origin in refused {
            #expect(try await upgradeStatus(port: port, origin: origin) == "HTTP/1.1 403 Forbidden", "\(origin)")
        }
        #expect(try await upgradeStatus(port: port, origin: nil) == "HTTP/1.1 403 Forbidden", "no Origin")
        let allowed = "only http://127.0.0.1:\(port) and http://localhost:\(port) may connect"
        #expect(logged.withLock { $0 } == refused.map { "preview: refused the WebSocket to origin \($0) (403): \(allowed)" }
                + ["preview: refused the WebSocket to a request without Origin (403): \(allowed)"])
    }
}
