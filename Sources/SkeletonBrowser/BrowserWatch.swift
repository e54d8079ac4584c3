import SkeletonDevTools
import SkeletonLayout
import SkeletonSystem

/// `skeletond browser`: runs the kiosk's Chromium with the DevTools pipe, opens its page, and
/// once the page is ready (`PageReadiness`) creates the ready file, which tells the skeleton to
/// go. It lives as long as the browser (Chromium ends itself when its pipe closes) and ends with
/// it, counting the browser's ends, so that the kiosk's unit brings the skeleton back and starts
/// the stack again.
public final class BrowserWatch {
    public struct Options: Sendable {
        public var commandLine: BrowserCommandLine
        public var settings = PageReadiness.Settings()
        /// Created once the page is ready (or shown at the timeout).
        public var readyFile: String?
        /// Holds how many times the browser has ended; kept across the stack's restarts.
        public var countFile: String?

        public init(commandLine: BrowserCommandLine) { self.commandLine = commandLine }
    }

    private let options: Options
    private let log: (String) -> Void

    public init(options: Options, log: @escaping (String) -> Void) {
        self.options = options
        self.log = log
    }

    /// Runs until the browser ends (status 1: the stack should start again) or a SIGTERM, SIGINT
    /// or SIGHUP ends the watch and the browser (status 0).
    public func run() -> Int32 {
        let chrome: DevToolsPipe
        do { chrome = try DevToolsPipe(arguments: options.commandLine.watched, quiet: false) } catch {
            log(error.description)
            return 1
        }
        // After the spawn: the browser must not inherit the blocked signals.
        let signals = try? SystemCalls.signalDescriptor()
        do {
            try watch(chrome, signals: signals)
            chrome.close()
            return 0
        } catch {
            guard error.kind == .closed else {
                log("\(error.description); the browser is ended")
                chrome.close()
                return 1
            }
            return ended(chrome)
        }
    }

    /// Until the page is shown, then until the browser ends; returns on a signal.
    private func watch(_ chrome: DevToolsPipe, signals: FileDescriptor?) throws(DevToolsError) {
        try chrome.attach(target: try chrome.firstPage(timeout: options.settings.timeout), timeout: options.settings.timeout)
        _ = try chrome.call("Page.enable", [:], timeout: options.settings.timeout)
        _ = try chrome.call("Inspector.enable", [:], timeout: options.settings.timeout)
        var readiness = PageReadiness(url: options.commandLine.url, settings: options.settings, now: SystemCalls.monotonicSeconds())
        while true {
            if let signals, SystemCalls.readSignal(signals) != nil { return }
            let wait = readiness.nextDeadline.map { $0 - SystemCalls.monotonicSeconds() } ?? 0.5
            for event in try chrome.waitForEvents(seconds: min(0.5, max(0, wait))) where event["method"]?.stringValue == "Inspector.targetCrashed" {
                try perform(readiness.handle(.rendererCrashed, at: SystemCalls.monotonicSeconds()), &readiness, chrome)
            }
            if let due = readiness.nextDeadline, SystemCalls.monotonicSeconds() >= due {
                try perform(readiness.handle(.tick, at: SystemCalls.monotonicSeconds()), &readiness, chrome)
            }
        }
    }

    private func perform(_ effects: [PageReadiness.Effect], _ readiness: inout PageReadiness, _ chrome: DevToolsPipe) throws(DevToolsError) {
        for effect in effects {
            switch effect {
            case .log(let line): log(line)
            case .reveal: markReady()
            case .navigate:
                let error = try navigate(chrome, timeout: readiness.secondsLeft(at: SystemCalls.monotonicSeconds()))
                try perform(readiness.handle(.navigated(error: error), at: SystemCalls.monotonicSeconds()), &readiness, chrome)
            case .look:
                let observation: PageObservation
                let timeout = min(2, readiness.secondsLeft(at: SystemCalls.monotonicSeconds()))
                do { observation = PageObservation(answer: try chrome.evaluate(PageObservation.script, timeout: timeout)) } catch {
                    guard error.kind != .closed else { throw error }
                    observation = .unavailable
                }
                try perform(readiness.handle(.observed(observation), at: SystemCalls.monotonicSeconds()), &readiness, chrome)
            }
        }
    }

    /// Page.navigate to the URL, waited for at most `timeout` seconds (what is left before the
    /// page is shown anyway): nil when it loaded, else the browser's name for the failure.
    private func navigate(_ chrome: DevToolsPipe, timeout: Double) throws(DevToolsError) -> String? {
        guard let url = options.commandLine.url else { return nil }
        do {
            return try chrome.call("Page.navigate", ["url": .string(url)], timeout: timeout)["errorText"]?.stringValue
        } catch {
            guard error.kind != .closed else { throw error }
            return error.description
        }
    }

    private func markReady() {
        guard let path = options.readyFile else { return }
        do { try SystemCalls.writeFileAtomically(path, [], durable: false) } catch {
            log("cannot create \(path): \(error.text); the skeleton is not told to go")
        }
    }

    /// The browser ended by itself: how, and how many times since the count began.
    private func ended(_ chrome: DevToolsPipe) -> Int32 {
        let end = SystemCalls.waitForEnd(chrome.pid)
        var line = "\(options.commandLine.arguments[0]) ended (\(end))"
        if let path = options.countFile {
            let digits = SystemCalls.readFile(path, limit: 64)?.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? []
            let before = Int(String(decoding: digits, as: UTF8.self)) ?? 0
            let text = "\(before + 1)\n"
            _ = text.utf8CString.withUnsafeBytes { bytes in
                try? SystemCalls.writeFileAtomically(path, [UnsafeRawBufferPointer(rebasing: bytes.dropLast())], durable: false)
            }
            line += ", \(before + 1) time\(before == 0 ? "" : "s") since the count began (\(path))"
        }
        log(line + "; the kiosk's unit starts the stack again, over the skeleton")
        return 1
    }
}
