import SkeletonLayout
import SkeletonSystem

/// Chromium driven over the DevTools protocol through a pipe (`--remote-debugging-pipe`: it
/// reads commands on its descriptor 3 and writes replies and events on 4, each a JSON text ending
/// in a NUL byte), so that no port is opened and no WebSocket client is needed. One page target
/// at a time, attached flat (`sessionId` on each command). Events that arrive while a call waits
/// for its reply are kept for `takeEvents`.
public final class DevToolsPipe {
    /// The browser's process.
    public let pid: Int32
    private let commands: FileDescriptor
    private let replies: FileDescriptor
    private var received: [UInt8] = []
    private var events: [JSONValue] = []
    private var nextID = 0
    private var session: String?
    private var closed = false

    /// Starts `arguments` (the browser's path or name first) with the pipe on its descriptors 3
    /// and 4; `--remote-debugging-pipe` is added when the arguments lack it. The browser's own
    /// output goes to /dev/null when `quiet`.
    public init(arguments: [String], quiet: Bool) throws(DevToolsError) {
        let toBrowser: (read: FileDescriptor, write: FileDescriptor)
        let fromBrowser: (read: FileDescriptor, write: FileDescriptor)
        do {
            toBrowser = try SystemCalls.pipe()
            fromBrowser = try SystemCalls.pipe()
        } catch {
            throw DevToolsError(.failed, "cannot make pipes for the browser: \(error.text)")
        }
        var arguments = arguments
        if !arguments.contains("--remote-debugging-pipe") { arguments.insert("--remote-debugging-pipe", at: 1) }
        do {
            pid = try SystemCalls.spawn(arguments, descriptors: [3: toBrowser.read, 4: fromBrowser.write], quiet: quiet)
        } catch {
            [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write].forEach { $0.close() }
            throw DevToolsError(.failed, "cannot start \(arguments[0]): \(error.text) (Debian's package: chromium)")
        }
        toBrowser.read.close()
        fromBrowser.write.close()
        commands = toBrowser.write
        replies = fromBrowser.read
    }

    /// Headless `executable` with a throwaway profile in `profile` and an empty page. Chromium's
    /// sandbox stays on, except as root, where Chromium refuses to start with it.
    public static func headless(executable: String, profile: String) throws(DevToolsError) -> DevToolsPipe {
        var arguments = [executable, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                         "--hide-scrollbars", "--mute-audio", "--user-data-dir=" + profile, "about:blank"]
        if SystemCalls.effectiveUserID == 0 { arguments.insert("--no-sandbox", at: 1) }
        return try DevToolsPipe(arguments: arguments, quiet: true)
    }

    /// Closes the pipe, ends the browser and its processes and waits for it.
    public func close() {
        closeDescriptors()
        SystemCalls.terminateAndWait(pid)
    }

    /// Closes the pipe only: Chromium takes that for a disconnect and ends itself.
    public func closeDescriptors() {
        guard !closed else { return }
        closed = true
        commands.close()
        replies.close()
    }

    /// Opens a page target of `width` x `height` CSS pixels and attaches to it.
    public func openPage(width: Int, height: Int, timeout: Double) throws(DevToolsError) {
        let target = try call("Target.createTarget", ["url": "about:blank"], timeout: timeout)
        guard let id = target["targetId"]?.stringValue else { throw DevToolsError(.failed, "the browser made no page: \(target.jsonText)") }
        try attach(target: id, timeout: timeout)
        _ = try call("Emulation.setDeviceMetricsOverride", ["width": .number(Double(width)), "height": .number(Double(height)),
                                                             "deviceScaleFactor": 1, "mobile": false], timeout: timeout)
        _ = try call("Page.enable", [:], timeout: timeout)
    }

    /// The browser's first page target (the window's tab), waited for up to `timeout` seconds.
    public func firstPage(timeout: Double) throws(DevToolsError) -> String {
        let deadline = SystemCalls.monotonicSeconds() + timeout
        while true {
            var targets: [JSONValue] = []
            if case .array(let infos)? = try call("Target.getTargets", [:], timeout: timeout)["targetInfos"] { targets = infos }
            if let page = targets.first(where: { $0["type"]?.stringValue == "page" }), let id = page["targetId"]?.stringValue { return id }
            guard SystemCalls.monotonicSeconds() < deadline else { throw DevToolsError(.noAnswer, "the browser opened no page within \(JSONValue.formatNumber(timeout)) s") }
            _ = try waitForEvents(seconds: 0.05)
        }
    }

    /// Attaches to `target`: later calls go to it.
    public func attach(target: String, timeout: Double) throws(DevToolsError) {
        session = nil
        let attached = try call("Target.attachToTarget", ["targetId": .string(target), "flatten": true], timeout: timeout)
        guard let session = attached["sessionId"]?.stringValue else { throw DevToolsError(.failed, "cannot attach to the page: \(attached.jsonText)") }
        self.session = session
    }

    /// Sends `method` (to the page once one is attached) and returns its result; an error reply,
    /// a closed pipe or no reply within `timeout` seconds is a `DevToolsError`.
    public func call(_ method: String, _ parameters: [String: JSONValue], timeout: Double) throws(DevToolsError) -> JSONValue {
        guard !closed else { throw DevToolsError(.closed, "\(method): the pipe to the browser is closed") }
        nextID += 1
        let id = Double(nextID)
        var message: [String: JSONValue] = ["id": .number(id), "method": .string(method), "params": .object(parameters)]
        if let session { message["sessionId"] = .string(session) }
        commands.writeAll(Array(JSONValue.object(message).jsonText.utf8) + [0])
        let deadline = SystemCalls.monotonicSeconds() + timeout
        while true {
            while let message = nextMessage() {
                guard message["id"]?.numberValue == id else {
                    if message["method"] != nil { events.append(message) }
                    continue
                }
                if let error = message["error"] {
                    throw DevToolsError(.failed, "\(method): \(error["message"]?.stringValue ?? error.jsonText)")
                }
                return message["result"] ?? .object([:])
            }
            let left = deadline - SystemCalls.monotonicSeconds()
            guard left > 0 else { throw DevToolsError(.noAnswer, "\(method): no answer from the browser within \(JSONValue.formatNumber(timeout)) s") }
            guard try readAvailable(milliseconds: Int32(left * 1000) + 1) else { continue }
        }
    }

    /// Reads what the browser sends for up to `seconds` (returning at the first message) and
    /// returns the events received so far; a closed pipe is a `DevToolsError` of kind `closed`.
    public func waitForEvents(seconds: Double) throws(DevToolsError) -> [JSONValue] {
        guard !closed else { throw DevToolsError(.closed, "the pipe to the browser is closed") }
        if events.isEmpty, try readAvailable(milliseconds: Int32(max(0, seconds) * 1000)) {
            while let message = nextMessage() {
                if message["method"] != nil { events.append(message) }
            }
        }
        return takeEvents()
    }

    /// The events received and not yet taken, oldest first.
    public func takeEvents() -> [JSONValue] {
        defer { events.removeAll() }
        return events
    }

    /// Evaluates `expression` in the page and returns its value (`returnByValue`, promises
    /// awaited); a thrown exception is a `DevToolsError` with its text.
    public func evaluate(_ expression: String, timeout: Double) throws(DevToolsError) -> JSONValue {
        let result = try call("Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true],
                              timeout: timeout)
        if let exception = result["exceptionDetails"] {
            throw DevToolsError(.failed, "the page's script failed: \(exception["exception"]?["description"]?.stringValue ?? exception.jsonText)")
        }
        return result["result"]?["value"] ?? .null
    }

    private func nextMessage() -> JSONValue? {
        while let end = received.firstIndex(of: 0) {
            let text = Array(received[..<end])
            received.removeSubrange(...end)
            if let message = try? JSONValue.parse(text) { return message }
        }
        return nil
    }

    /// Waits up to `milliseconds` for the pipe and reads what is there: false when nothing came.
    private func readAvailable(milliseconds: Int32) throws(DevToolsError) -> Bool {
        guard !SystemCalls.pollReady([Watch(descriptor: replies, events: .readable)], timeoutMilliseconds: milliseconds).isEmpty else { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = (try? chunk.withUnsafeMutableBytes { try replies.read(into: $0) }) ?? nil
        guard let count, count > 0 else {
            closeDescriptors()
            throw DevToolsError(.closed, "the browser closed its pipe (it exited)")
        }
        received += chunk[..<count]
        return true
    }
}
