import SkeletonLayout
import SkeletonSystem

/// Headless Chromium driven over the DevTools protocol through a pipe
/// (`--remote-debugging-pipe`: it reads commands on its descriptor 3 and writes replies and
/// events on 4, each a JSON text ending in a NUL byte), so that no port is opened and no
/// WebSocket client is needed. One page target, attached flat (`sessionId` on each command).
final class DevToolsPipe {
    private let pid: Int32
    private let commands: FileDescriptor
    private let replies: FileDescriptor
    private var received: [UInt8] = []
    private var nextID = 0
    private var session: String?

    /// Starts `executable` (headless, a throwaway profile in `profile`) with an empty page.
    init(executable: String, profile: String) throws(CaptureError) {
        let toBrowser: (read: FileDescriptor, write: FileDescriptor)
        let fromBrowser: (read: FileDescriptor, write: FileDescriptor)
        do {
            toBrowser = try SystemCalls.pipe()
            fromBrowser = try SystemCalls.pipe()
        } catch {
            throw CaptureError("cannot make pipes for the browser: \(error.text)")
        }
        let arguments = [executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                         "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--mute-audio",
                         "--user-data-dir=" + profile, "about:blank"]
        do {
            pid = try SystemCalls.spawn(arguments, descriptors: [3: toBrowser.read, 4: fromBrowser.write], quiet: true)
        } catch {
            [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write].forEach { $0.close() }
            throw CaptureError("cannot start \(executable): \(error.text) (Debian's package: chromium)")
        }
        toBrowser.read.close()
        fromBrowser.write.close()
        commands = toBrowser.write
        replies = fromBrowser.read
    }

    /// Ends the browser and its processes.
    func close() {
        commands.close()
        replies.close()
        SystemCalls.terminateAndWait(pid)
    }

    /// Opens a page target of `width` x `height` CSS pixels and attaches to it.
    func openPage(width: Int, height: Int, timeout: Double) throws(CaptureError) {
        let target = try call("Target.createTarget", ["url": "about:blank"], timeout: timeout)
        guard let id = target["targetId"]?.stringValue else { throw CaptureError("the browser made no page: \(target.jsonText)") }
        let attached = try call("Target.attachToTarget", ["targetId": .string(id), "flatten": true], timeout: timeout)
        guard let session = attached["sessionId"]?.stringValue else { throw CaptureError("cannot attach to the page: \(attached.jsonText)") }
        self.session = session
        _ = try call("Emulation.setDeviceMetricsOverride", ["width": .number(Double(width)), "height": .number(Double(height)),
                                                             "deviceScaleFactor": 1, "mobile": false], timeout: timeout)
        _ = try call("Page.enable", [:], timeout: timeout)
    }

    /// Sends `method` (to the page once one is attached) and returns its result; an error reply,
    /// a closed pipe or no reply within `timeout` seconds is a `CaptureError`.
    func call(_ method: String, _ parameters: [String: JSONValue], timeout: Double) throws(CaptureError) -> JSONValue {
        nextID += 1
        var message: [String: JSONValue] = ["id": .number(Double(nextID)), "method": .string(method), "params": .object(parameters)]
        if let session { message["sessionId"] = .string(session) }
        commands.writeAll(Array(JSONValue.object(message).jsonText.utf8) + [0])
        let deadline = SystemCalls.monotonicSeconds() + timeout
        while true {
            while let end = received.firstIndex(of: 0) {
                let text = Array(received[..<end])
                received.removeSubrange(...end)
                guard let reply = try? JSONValue.parse(text), reply["id"]?.numberValue == Double(nextID) else { continue }
                if let error = reply["error"] {
                    throw CaptureError("\(method): \(error["message"]?.stringValue ?? error.jsonText)")
                }
                return reply["result"] ?? .object([:])
            }
            let left = deadline - SystemCalls.monotonicSeconds()
            guard left > 0 else { throw CaptureError("\(method): no answer from the browser within \(JSONValue.formatNumber(timeout)) s") }
            guard !SystemCalls.pollReady([Watch(descriptor: replies, events: .readable)], timeoutMilliseconds: Int32(left * 1000) + 1).isEmpty else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = (try? chunk.withUnsafeMutableBytes { try replies.read(into: $0) }) ?? nil
            guard let count, count > 0 else { throw CaptureError("\(method): the browser closed its pipe (it exited)") }
            received += chunk[..<count]
        }
    }

    /// Evaluates `expression` in the page and returns its value (`returnByValue`); a thrown
    /// exception is a `CaptureError` with its text.
    func evaluate(_ expression: String, timeout: Double) throws(CaptureError) -> JSONValue {
        let result = try call("Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true],
                              timeout: timeout)
        if let exception = result["exceptionDetails"] {
            throw CaptureError("the page's script failed: \(exception["exception"]?["description"]?.stringValue ?? exception.jsonText)")
        }
        return result["result"]?["value"] ?? .null
    }
}
